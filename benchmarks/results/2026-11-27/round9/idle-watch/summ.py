#!/usr/bin/env python3
# run.sh's results, per build (head: before, watch: with the idle watch): per cell the value of each round, then
# the median. Ratios are slotpool ÷ HikariCP in the same run. Run from this directory.
import csv, glob, json, re, statistics
from collections import defaultdict

vals = defaultdict(list)   # (build, cell) -> [values in round order]

def rows(path):
    return list(csv.DictReader(open(path))) if glob.glob(path) else []

def rounds(prefix):
    return sorted({int(m.group(1)) for f in glob.glob(f'{prefix}-*') if (m := re.search(r'-(\d+)(\.json)?$', f))})

for build in ('head', 'watch'):
    for r in rounds(f'hk-{build}'):
        by = {(x['pool'], int(x['threads'])): x for x in rows(f'hk-{build}-{r}/platform-runs.csv')}
        for t in (10, 100, 1000):
            if ('slotpool', t) in by and ('hikari', t) in by:
                s, h = by[('slotpool', t)], by[('hikari', t)]
                vals[(build, f'stub {t:>5} threads: borrows/s ÷ HikariCP')].append(
                    float(s['borrows_per_s']) / float(h['borrows_per_s']))
                vals[(build, f'stub {t:>5} threads: fewest ÷ median')].append(float(s['fairness']))
    for r in rounds(f'big-{build}'):
        by = {int(x['threads']): x for x in rows(f'big-{build}-{r}/platform-runs.csv')}
        if 1000 in by and 10000 in by:
            vals[(build, 'slotpool alone  1,000 threads: M borrows/s')].append(float(by[1000]['borrows_per_s']) / 1e6)
            vals[(build, 'slotpool alone 10,000 threads: M borrows/s')].append(float(by[10000]['borrows_per_s']) / 1e6)
            vals[(build, '10,000 ÷ 1,000')].append(float(by[10000]['borrows_per_s']) / float(by[1000]['borrows_per_s']))
            vals[(build, '10,000 threads: fewest ÷ median')].append(float(by[10000]['fairness']))
    for r in rounds(f'held-{build}'):
        by = {x['pool']: x for x in rows(f'held-{build}-{r}/platform-runs.csv')}
        for pool in ('slotpool', 'hikari'):
            if pool in by:
                vals[(build, f'held 1 ms, 1,000 threads: {pool} p99.9 ÷ ideal')].append(
                    float(by[pool]['wait_p999_ms']) / float(by[pool]['ideal_fifo_wait_ms']))
    for f in sorted(glob.glob(f'jmh-{build}-*.json')):
        try:
            data = json.load(open(f))
        except ValueError:
            continue
        score = {}
        for b in data:
            shape = b['benchmark'].rsplit('.', 1)[1]
            score[(shape, b['params']['pool'])] = b['primaryMetric']['score']
            bop = b.get('secondaryMetrics', {}).get('gc.alloc.rate.norm')
            if bop and b['params']['pool'] == 'slotpool':
                vals[(build, f'JMH {shape}: slotpool B/op')].append(bop['score'])
        for (shape, pool), v in score.items():
            if pool == 'slotpool' and (shape, 'hikari') in score:
                vals[(build, f'JMH {shape}: ÷ HikariCP')].append(v / score[(shape, 'hikari')])
    for r in rounds(f'pg-{build}'):
        by = defaultdict(dict)
        for x in rows(f'pg-{build}-{r}/runs.csv'):
            by[(int(x['connections']), int(x['threads']), x['run'])][x['pool']] = x
        for (c, t, run), v in sorted(by.items()):
            if 'slotpool' in v and 'hikari' in v:
                s = v['slotpool']
                cell = f'pg {c:>2} connections {t:>4} threads'
                vals[(build, f'{cell}: tx/s ÷ HikariCP')].append(float(s['tx_per_s']) / float(v['hikari']['tx_per_s']))
                vals[(build, f'{cell}: p99.9 ÷ ideal')].append(float(s['p999_over_ideal']))
                vals[(build, f'{cell}: FIFO floor')].append(float(s['fifo_floor']))
                vals[(build, f'{cell}: busy')].append(float(s['busy_share']))

cells = sorted({c for _, c in vals})
for c in cells:
    line = f'{c:<60}'
    for build in ('head', 'watch'):
        v = vals.get((build, c), [])
        if v:
            line += f'  {build}: {statistics.median(v):7.2f} ({" ".join(f"{x:.2f}" for x in v)})'
    print(line)
