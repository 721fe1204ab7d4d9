#!/usr/bin/env python3
# Per sitting, build and round: 1,000- and 10,000-thread borrows/s, 10,000 ÷ 1,000, and at 10,000 threads the
# fewest ÷ median thread and the threads under a quarter of the median. Run from this directory.
import csv, glob, re
for f in sorted(glob.glob('s*/large-*-*/platform-runs.csv')):
    sitting, d = f.split('/')[0], f.split('/')[1]
    build, rnd = re.match(r'large-(.*)-(\d+)$', d).groups()
    rows = {int(r['threads']): r for r in csv.DictReader(open(f))}
    k1, k10 = rows[1000], rows[10000]
    b1, b10 = float(k1['borrows_per_s']), float(k10['borrows_per_s'])
    print(f"{sitting} {build:7} round {rnd}: 1,000 {b1/1e6:.2f}M, 10,000 {b10/1e6:.2f}M, ratio {b10/b1:.2f}; "
          f"10,000 fewest/median {float(k10['fairness']):.2f}, "
          f"starved {k10['starved']}")
