#!/usr/bin/env python3
# Per futex table setting and round: 1,000- and 10,000-thread borrows/s, their ratio, and at 10,000 threads the
# fewest ÷ median thread, the threads under a quarter of the median and the CPU per borrow. Run from here.
import csv, glob, re
for f in sorted(glob.glob('large-*-*/platform-runs.csv')):
    setting, rnd = re.match(r'large-(.*)-(\d+)/', f).groups()
    rows = {int(r['threads']): r for r in csv.DictReader(open(f))}
    a, b = rows[1000], rows[10000]
    print(f"{setting:8} round {rnd}: 1,000 {float(a['borrows_per_s'])/1e6:.2f}M, 10,000 {float(b['borrows_per_s'])/1e6:.2f}M, "
          f"ratio {float(b['borrows_per_s'])/float(a['borrows_per_s']):.2f}; 10,000 fewest/median {float(b['fairness']):.2f}, "
          f"starved {b['starved']}, CPU µs/borrow {float(b['cpu_us_per_borrow']):.2f}")
