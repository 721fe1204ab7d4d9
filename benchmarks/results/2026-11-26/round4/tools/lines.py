import re, sys
from collections import defaultdict
objs = []
for l in open(sys.argv[1]):
    m = re.match(r'([0-9a-f]+)-([0-9a-f]+) line ([0-9a-f]+)\.\.([0-9a-f]+)\s+(\d+) (\S+) (\S+)', l)
    if m: objs.append((int(m[1],16), int(m[2],16), m[6], m[7]))
lines = defaultdict(list)
for o in objs:
    for ln in range(o[0]>>6, ((o[1]-1)>>6)+1): lines[ln].append(o)
hot = re.compile(sys.argv[2])
for ln in sorted(lines):
    os_ = lines[ln]
    if len(os_) > 1 and any(hot.search(o[3]) or hot.search(o[2]) for o in os_):
        print(f"line {ln:x}: " + " | ".join(f"{o[2]}:{o[3].replace('ds.state.pool.','').replace('ds.pool.','')}" for o in os_))
