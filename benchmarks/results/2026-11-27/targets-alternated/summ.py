#!/usr/bin/env python3
# Summarises run.sh's directory: per build and round, issue 28's large-count targets, then the medians per build.
import csv, glob, os, re, statistics
from collections import defaultdict
rows = defaultdict(dict)
for f in glob.glob('*-*-*/*runs.csv'):
    kind, name, rnd = re.match(r'(scaling|held|per-request)-(.*)-(\d+)$', os.path.dirname(f)).groups()
    for r in csv.DictReader(open(f)):
        rows[(name, rnd)][(kind, r['pool'], r.get('threads', ''))] = r
med = defaultdict(lambda: defaultdict(list))

def scaling(v, m):
    k1, k10 = v[('scaling', 'slotpool', '1000')], v[('scaling', 'slotpool', '10000')]
    ratio = float(k10['borrows_per_s']) / float(k1['borrows_per_s'])
    fair = float(k10['thread_min']) / float(k10['thread_median'])
    m['10k/1k'].append(ratio); m['fairness 10k'].append(fair)
    return f"10k/1k {ratio:.2f} fairness10k {fair:.2f} starved {k10['starved']}"

def held(v, m):
    s, h = v[('held', 'slotpool', '1000')], v[('held', 'hikari', '1000')]
    p, ph = (float(x['wait_p999_ms']) / float(x['ideal_fifo_wait_ms']) for x in (s, h))
    m['held p99.9/ideal'].append(p); m['held hikari p99.9/ideal'].append(ph)
    return f"held p99.9/ideal {p:.2f} (hikari {ph:.1f}), borrows/s {float(s['borrows_per_s']):.0f} vs {float(h['borrows_per_s']):.0f}"

def per_request(v, m):
    pr = float(v[('per-request', 'slotpool', '')]['requests_per_s']) / float(v[('per-request', 'hikari', '')]['requests_per_s'])
    m['per request'].append(pr)
    return f"per-request {pr:.2f}x"

for (name, rnd), v in sorted(rows.items()):
    out = []
    for part in (scaling, held, per_request):
        try:
            out.append(part(v, med[name]))
        except KeyError:
            pass  # that target did not run in this round
    print(f"{name} round {rnd}: " + "; ".join(out))
for name, m in med.items():
    print(f"{name} medians: " + "; ".join(f"{k} {statistics.median(x):.2f} ({len(x)})" for k, x in m.items()))
