# Aggregates JFR execution samples: self and inclusive counts per method, for stacks containing the filter.
import sys, re, collections
# usage: jfr print --events jdk.ExecutionSample --stack-depth 30 f.jfr | python3 jfrtop.py [filter]
txt = sys.stdin.read()
events = txt.split('jdk.ExecutionSample')
selfc = collections.Counter(); incl = collections.Counter(); n = 0
flt = sys.argv[1] if len(sys.argv) > 1 else None
for e in events:
    m = re.search(r'stackTrace = \[(.*?)\n\s*\]', e, re.S)
    if not m: continue
    frames = [re.sub(r'\s+line:.*', '', f.strip()) for f in m.group(1).strip().split('\n') if f.strip() and f.strip() != '...']
    if not frames: continue
    if flt and not any(flt in f for f in frames): continue
    n += 1
    selfc[frames[0]] += 1
    for f in set(frames): incl[f] += 1
print("samples", n)
print("-- self"); [print(f"{c:6d} {c*100/n:5.1f}% {f}") for f, c in selfc.most_common(25)]
print("-- inclusive"); [print(f"{c:6d} {c*100/n:5.1f}% {f}") for f, c in incl.most_common(40)]
