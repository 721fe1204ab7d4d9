#!/usr/bin/env python3
# Issue 28's targets from run.sh's directory: per round, then medians over rounds (over runs where a cell has
# several). Run from this directory.
import csv, glob, json, re, statistics
from collections import defaultdict

med = defaultdict(list)
def note(key, value):
    med[key].append(value)

def runs(path):
    return list(csv.DictReader(open(path))) if glob.glob(path) else []

for rnd in sorted({re.search(r'-(\d+)\.log$', f).group(1) for f in glob.glob('*-[0-9]*.log')}, key=int):
    out = []
    for tag, label in (('scaling-large', 'default futex table'), ('scaling-large-table', '16,384 buckets')):
        rows = {int(r['threads']): r for r in runs(f'{tag}-{rnd}/platform-runs.csv')}
        if 1000 in rows and 10000 in rows:
            a, b = rows[1000], rows[10000]
            ratio = float(b['borrows_per_s']) / float(a['borrows_per_s'])
            note(f'10k/1k, {label}', ratio); note(f'10k fewest/median, {label}', float(b['fairness']))
            note(f'10k threads starved, {label}', int(b['starved']))
            out.append(f"10k/1k ({label}) {ratio:.2f}, fewest/median {float(b['fairness']):.2f}, starved {b['starved']}")
    held = {r['pool']: r for r in runs(f'held-{rnd}/platform-runs.csv')}
    if len(held) == 2:
        p = {k: float(v['wait_p999_ms']) / float(v['ideal_fifo_wait_ms']) for k, v in held.items()}
        note('held 1 ms, 1,000 threads: p99.9/ideal slotpool', p['slotpool']); note('held: HikariCP p99.9/ideal', p['hikari'])
        out.append(f"held p99.9/ideal {p['slotpool']:.2f} (HikariCP {p['hikari']:.1f})")
    pr = defaultdict(dict)
    for r in runs(f'per-request-{rnd}/runs.csv'):
        pr[r['run']][r['pool']] = r
    for run, v in sorted(pr.items()):
        if len(v) == 2:
            ratio = float(v['slotpool']['requests_per_s']) / float(v['hikari']['requests_per_s'])
            note('per request (chain harness)', ratio); note('per request: busiest chain share', float(v['slotpool']['chain_busiest_share']))
            out.append(f"per-request {ratio:.2f} (busiest chain {100 * float(v['slotpool']['chain_busiest_share']):.0f} %)")
    sc = defaultdict(dict)
    for r in runs(f'scaling-{rnd}/platform-runs.csv'):
        sc[(r['threads'], r['run'])][r['pool']] = float(r['borrows_per_s'])
    for (t, run), v in sorted(sc.items()):
        if len(v) == 2:
            note(f'stub {t} threads', v['slotpool'] / v['hikari'])
    for f, kind in ((f'jmh-{rnd}.json', 'cycle'), (f'jmh-statement-off-{rnd}.json', 'statement'), (f'jmh-statement-on-{rnd}.json', 'statement-on')):
        try:
            data = json.load(open(f))
        except (OSError, ValueError):
            continue
        for b in data:
            shape = b['benchmark'].rsplit('.', 1)[1]
            key = (kind, shape, b['params']['pool'])
            note(('score',) + key, b['primaryMetric']['score'])
            bop = b.get('secondaryMetrics', {}).get('gc.alloc.rate.norm')
            if bop:
                note(('B/op',) + key, bop['score'])
    for r in runs(f'pg-{rnd}/runs.csv'):
        if r['pool'] == 'slotpool' and r['ratio_to_hikari']:
            note(f"pg {r['connections']} connections, {r['threads']} threads: tx/s ratio", float(r['ratio_to_hikari']))
            note(f"pg {r['connections']} connections, {r['threads']} threads: p99.9/ideal", float(r['p999_over_ideal']))
            if r.get('fifo_floor'):  # the PostgreSQL harness has recorded it since round eight
                note(f"pg {r['connections']} connections, {r['threads']} threads: FIFO floor", float(r['fifo_floor']))
        elif r['pool'] == 'hikari':
            note(f"pg {r['connections']} connections, {r['threads']} threads: HikariCP p99.9/ideal", float(r['p999_over_ideal']))
    print(f"round {rnd}: " + "; ".join(out))

print('\nmedians (values):')
for key in sorted(k for k in med if isinstance(k, str)):
    v = med[key]
    print(f"{key}: {statistics.median(v):.2f} ({', '.join(f'{x:.2f}' for x in v)})")
scores = {k[1:]: statistics.median(v) for k, v in med.items() if isinstance(k, tuple) and k[0] == 'score'}
bops = {k[1:]: statistics.median(v) for k, v in med.items() if isinstance(k, tuple) and k[0] == 'B/op'}
for (kind, shape, pool), score in sorted(scores.items()):
    if pool == 'slotpool' and (kind, shape, 'hikari') in scores or (kind == 'statement-on' and ('statement', shape, 'hikari') in scores):
        base = scores.get((kind, shape, 'hikari')) or scores[('statement', shape, 'hikari')]
        print(f"JMH {kind} {shape}: slotpool {score:,.0f} ops/ms = {score / base:.2f} x HikariCP; "
              f"B/op {bops.get((kind, shape, pool), float('nan')):.0f} vs {bops.get(('statement' if kind == 'statement-on' else kind, shape, 'hikari'), float('nan')):.0f}")
