#!/usr/bin/env python3
# Summarises run.sh's directory, per build and round, then medians per build: the large-count targets (with the
# per-request run's fewest-requests chain) and PostgreSQL. The stub at 10 and 100 threads and JMH:
# ../../2026-11-26/round4/tools/summ.py on this directory.
import csv, glob, os, re, statistics
from collections import defaultdict
rows = defaultdict(dict)
for f in glob.glob('*-*/*runs.csv'):
    m = re.match(r'(scaling-large|held|per-request|pg)-(.*)-(\d+)$', os.path.dirname(f))
    if not m:
        continue
    kind, name, rnd = m.groups()
    for r in csv.DictReader(open(f)):
        rows[(name, rnd)][(kind, r['pool'], r.get('threads', ''), r.get('run', ''))] = r
med = defaultdict(lambda: defaultdict(list))

def large(v, m):
    k1, k10 = v[('scaling-large', 'slotpool', '1000', '1')], v[('scaling-large', 'slotpool', '10000', '1')]
    ratio = float(k10['borrows_per_s']) / float(k1['borrows_per_s'])
    fair = float(k10['thread_min']) / float(k10['thread_median'])
    m['10k/1k'].append(ratio); m['fairness 10k'].append(fair); m['starved 10k'].append(int(k10['starved']))
    return f"10k/1k {ratio:.2f} fairness10k {fair:.2f} starved {k10['starved']}"

def held(v, m):
    s, h = v[('held', 'slotpool', '1000', '1')], v[('held', 'hikari', '1000', '1')]
    p, ph = (float(x['wait_p999_ms']) / float(x['ideal_fifo_wait_ms']) for x in (s, h))
    m['held p99.9/ideal'].append(p); m['held hikari p99.9/ideal'].append(ph)
    return f"held p99.9/ideal {p:.2f} (hikari {ph:.1f})"

def per_request(v, m):
    s, h = v[('per-request', 'slotpool', '', '1')], v[('per-request', 'hikari', '', '1')]
    pr = float(s['requests_per_s']) / float(h['requests_per_s'])
    m['per request'].append(pr)
    return f"per-request {pr:.2f}x, chains fewest/median {s['chain_min']}/{s['chain_median']}"

def pg(v, m):
    out = []
    for threads in ('10', '100'):
        for run in ('1', '2'):
            s = v[('pg', 'slotpool', threads, run)]
            m[f'pg {threads}t ratio'].append(float(s['ratio_to_hikari']))
            m[f'pg {threads}t p99.9/ideal'].append(float(s['p999_over_ideal']))
            out.append(f"pg {threads}t {float(s['ratio_to_hikari']):.2f} tail {float(s['p999_over_ideal']):.2f}")
    return ", ".join(out)

for (name, rnd), v in sorted(rows.items()):
    out = []
    for part in (large, held, per_request, pg):
        try:
            out.append(part(v, med[name]))
        except (KeyError, ValueError):
            pass  # not run in this round, or still under way
    print(f"{name} round {rnd}: " + "; ".join(out))
for name, m in sorted(med.items()):
    print(f"{name} medians: " + "; ".join(f"{k} {statistics.median(x):.2f} ({len(x)})" for k, x in m.items()))
