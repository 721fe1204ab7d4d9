# Per run: cache on / HikariCP, cache off / HikariCP, cache on / off; medians per build.  usage: python3 summ.py DIR
import json,glob,sys,statistics,collections
d=collections.defaultdict(lambda: collections.defaultdict(list))
for f in sorted(glob.glob(sys.argv[1]+'/*.json')):
    n=f.split('/')[-1].rsplit('-',1)[0]
    try: data=json.load(open(f))
    except Exception: continue
    s={}
    for b in data:
        s[(b['params']['pool'],b['params']['statementCacheSize'])]=b['primaryMetric']['score']
    h=s.get(('hikari','0'));a=s.get(('slotpool','0'));c=s.get(('slotpool','16'))
    if not (h and a and c): continue
    d[n]['on/hik'].append(c/h); d[n]['off/hik'].append(a/h); d[n]['on/off'].append(c/a)
    d[n]['hik'].append(h); d[n]['off'].append(a); d[n]['on'].append(c)
for n,m in d.items():
    print(n, 'runs', len(m['on/hik']))
    for k,v in m.items():
        fmt='%.2f' if '/' in k else '%.0f'
        print('  %-8s median '%k + fmt%statistics.median(v) + '  [' + ' '.join(fmt%x for x in v) + ']')
