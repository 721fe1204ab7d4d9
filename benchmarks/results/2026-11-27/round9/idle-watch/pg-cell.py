#!/usr/bin/env python3
# PostgreSQL, 10 connections, 1,000 threads: every run of the cell, from run.sh's pg-* (head, watch) and
# period/run.sh's pg-* (head, watch, watch1ms: the watch looking every 1 ms whatever the turn), per build: the
# runs' slotpool tx/s ÷ HikariCP (same run), their median, and the median of slotpool's work per transaction (ms).
# Run from this directory.
import csv, glob, statistics
from collections import defaultdict

ratio, work = defaultdict(list), defaultdict(list)
for f in sorted(glob.glob('pg-*/runs.csv') + glob.glob('period/pg-*/runs.csv')):
    build = f.split('/')[-2].rsplit('-', 1)[0].removeprefix('pg-')
    by = defaultdict(dict)
    for r in csv.DictReader(open(f)):
        if r['connections'] == '10' and r['threads'] == '1000':
            by[r['run']][r['pool']] = r
    for v in by.values():
        if 'slotpool' in v and 'hikari' in v:
            ratio[build].append(float(v['slotpool']['tx_per_s']) / float(v['hikari']['tx_per_s']))
            work[build].append(float(v['slotpool']['work_ms']))
for build in ('head', 'watch', 'watch1ms'):
    xs = sorted(ratio[build])
    print(f"{build:9} {len(xs):2} runs: tx/s ÷ HikariCP median {statistics.median(xs):.2f} "
          f"({' '.join(f'{x:.2f}' for x in xs)}); work median {statistics.median(work[build]):.2f} ms")
