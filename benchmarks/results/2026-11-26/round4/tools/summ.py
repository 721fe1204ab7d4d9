#!/usr/bin/env python3
# Summarises a run.sh directory: per build, per-run slotpool/hikari ratios (scaling, per thread count and run) and JMH per shape.
import csv, glob, json, os, re, statistics, sys
from collections import defaultdict
d = sys.argv[1]
scal = defaultdict(list); cpu = defaultdict(list); jmh = defaultdict(lambda: defaultdict(list)); bop = defaultdict(lambda: defaultdict(list))
for f in sorted(glob.glob(os.path.join(d, 'scaling-*/platform-runs.csv'))):
    name = re.match(r'scaling-(.*)-(\d+)$', os.path.basename(os.path.dirname(f))).group(1)
    rows = list(csv.DictReader(open(f)))
    by = defaultdict(dict)
    for r in rows:
        by[(r['threads'], r['run'])][r['pool']] = float(r['borrows_per_s'])
        cpu[(name, r['threads'], r['pool'])].append(float(r['cpu_us_per_borrow']))
    for k, v in sorted(by.items()):
        if 'slotpool' in v and 'hikari' in v:
            scal[(name, k[0])].append((v['slotpool'] / v['hikari'], v['slotpool'], v['hikari']))
for f in sorted(glob.glob(os.path.join(d, 'jmh-*.json'))):
    name = re.match(r'jmh-(.*)-(\d+)\.json$', os.path.basename(f)).group(1)
    try:
        data = json.load(open(f))
    except Exception:
        continue
    run = {}
    for b in data:
        shape = b['benchmark'].rsplit('.', 1)[1]; pool = b['params']['pool']
        run[(shape, pool)] = b['primaryMetric']['score']
        sm = b.get('secondaryMetrics', {}).get('gc.alloc.rate.norm')
        if sm: bop[name][(shape, pool)].append(sm['score'])
    for shape in sorted({s for s, _ in run}):
        if (shape, 'slotpool') in run and (shape, 'hikari') in run:
            jmh[name][shape].append((run[(shape, 'slotpool')] / run[(shape, 'hikari')], run[(shape, 'slotpool')], run[(shape, 'hikari')]))
for key in sorted(scal):
    name, threads = key
    r = [x[0] for x in scal[key]]
    print(f"scaling{threads} {name}: median ratio {statistics.median(r):.2f} of {len(r)} runs: " + ", ".join(f"{x:.2f}" for x in r)
          + f"; slotpool median {statistics.median(x[1] for x in scal[key])/1e6:.1f}M, hikari {statistics.median(x[2] for x in scal[key])/1e6:.1f}M"
          + f"; CPU us/borrow slotpool {statistics.median(cpu[(name,threads,'slotpool')]):.3f}, hikari {statistics.median(cpu[(name,threads,'hikari')]):.3f}")
for name in jmh:
    for shape, v in jmh[name].items():
        r = [x[0] for x in v]
        b = bop[name]
        print(f"jmh {name} {shape}: median ratio {statistics.median(r):.2f} of {len(r)}: " + ", ".join(f"{x:.2f}" for x in r)
              + f"; slotpool {statistics.median(x[1] for x in v):.0f} hikari {statistics.median(x[2] for x in v):.0f} ops/ms"
              + f"; B/op {statistics.median(b[(shape,'slotpool')]) if b[(shape,'slotpool')] else '-'} / {statistics.median(b[(shape,'hikari')]) if b[(shape,'hikari')] else '-'}")
