#!/usr/bin/env python3
# run.sh's idle probe per build (head: before, watch: the idle watch), 10 connections: slotpool's mean gap on a
# physical connection from a commit to the next borrow's return (µs), and its tx/s ÷ HikariCP, per run and median.
# Run from this directory.
import csv, glob, re, statistics
from collections import defaultdict

idle, ratio = defaultdict(list), defaultdict(list)
for f in sorted(glob.glob('probe-*.log')):
    build = f.split('-')[1]
    for line in open(f):
        m = re.search(r'pool=SLOTPOOL, connections=10, threads=(\d+)\] idle-probe idle_us=([\d.]+)', line)
        if m:
            idle[(build, int(m.group(1)))].append(float(m.group(2)))
for f in sorted(glob.glob('probe-*/runs.csv')):
    build = f.split('-')[1]
    by = defaultdict(dict)
    for r in csv.DictReader(open(f)):
        by[(int(r['threads']), r['run'])][r['pool']] = r
    for (t, _), v in by.items():
        ratio[(build, t)].append(float(v['slotpool']['tx_per_s']) / float(v['hikari']['tx_per_s']))
for key in sorted(idle):
    print(f"{key[0]:5} {key[1]:5} threads: idle µs median {statistics.median(idle[key]):.0f} "
          f"({' '.join(f'{x:.0f}' for x in idle[key])}); tx/s ÷ HikariCP median {statistics.median(ratio[key]):.2f} "
          f"({' '.join(f'{x:.2f}' for x in sorted(ratio[key]))})")
