#!/usr/bin/env python3
import re, sys, statistics
from collections import defaultdict
rows = defaultdict(list)
for line in open(sys.argv[1]):
    m = re.match(r'(\S+) RESULT run=(\d+) pool=(\S+) threads=(\d+) cpu_ns_per_op=([\d.]+) ops_per_s=([\d.]+)', line)
    if m: rows[(m[1], m[4], m[3])].append((float(m[5]), float(m[6])))
for k in sorted(rows):
    v = rows[k]
    print(f"{k[0]:12} t={k[1]:4} {k[2]:9} cpu ns/op median {statistics.median(x[0] for x in v):7.1f} [{', '.join(f'{x[0]:.0f}' for x in v)}]  ops/s median {statistics.median(x[1] for x in v)/1e6:.2f}M")
