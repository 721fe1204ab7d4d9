#!/usr/bin/env python3
# Per build and cell (connections, threads): medians over every run of the rounds of slotpool ÷ HikariCP tx/s,
# of p99.9 ÷ ideal for each pool, and of slotpool's fewest ÷ median thread. Run it from this directory or from
# stretch-100t.
import csv, glob, statistics
from collections import defaultdict
cells = defaultdict(lambda: defaultdict(list))
for f in sorted(glob.glob('pg-*-*/runs.csv')):
    build = f.split('/')[0].rsplit('-', 1)[0][len('pg-'):]
    rows = list(csv.DictReader(open(f)))
    for r in rows:
        if r['pool'] == 'slotpool' and not r['ratio_to_hikari']:
            continue  # a run still under way: its HikariCP half is not written yet
        key = (build, int(r['connections']), int(r['threads']))
        if r['pool'] == 'slotpool':
            cells[key]['ratio'].append(float(r['ratio_to_hikari']))
            cells[key]['tail'].append(float(r['p999_over_ideal']))
            cells[key]['fair'].append(float(r['fairness']))
            cells[key]['errors'].append(int(r['errors']))
        else:
            cells[key]['hikari_tail'].append(float(r['p999_over_ideal']))
            cells[key]['errors'].append(int(r['errors']))
print('build | connections | threads | tx/s ratio, median (runs) | p99.9 / ideal slotpool | HikariCP | fewest / median | errors')
for key in sorted(cells, key=lambda k: (k[1], k[2], k[0])):
    c = cells[key]
    med = lambda xs: statistics.median(xs)
    print(f"{key[0]} | {key[1]} | {key[2]} | {med(c['ratio']):.2f} ({', '.join(f'{x:.2f}' for x in c['ratio'])})"
          f" | {med(c['tail']):.2f} | {med(c['hikari_tail']):.2f} | {med(c['fair']):.2f} | {sum(c['errors'])}")
