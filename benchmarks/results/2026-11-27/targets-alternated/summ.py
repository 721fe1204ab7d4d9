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
for (name, rnd), v in sorted(rows.items()):
    out = []
    try:
        k1, k10 = v[('scaling', 'slotpool', '1000')], v[('scaling', 'slotpool', '10000')]
        ratio = float(k10['borrows_per_s']) / float(k1['borrows_per_s'])
        fair = float(k10['thread_min']) / float(k10['thread_median'])
        med[name]['10k/1k'].append(ratio); med[name]['fairness 10k'].append(fair)
        out.append(f"10k/1k {ratio:.2f} fairness10k {fair:.2f} starved {k10['starved']}")
    except KeyError:
        pass
    try:
        s, h = v[('held', 'slotpool', '1000')], v[('held', 'hikari', '1000')]
        p = float(s['wait_p999_ms']) / float(s['ideal_fifo_wait_ms']); ph = float(h['wait_p999_ms']) / float(h['ideal_fifo_wait_ms'])
        med[name]['held p99.9/ideal'].append(p); med[name]['held hikari p99.9/ideal'].append(ph)
        out.append(f"held p99.9/ideal {p:.2f} (hikari {ph:.1f}), borrows/s {float(s['borrows_per_s']):.0f} vs {float(h['borrows_per_s']):.0f}")
    except KeyError:
        pass
    try:
        s, h = v[('per-request', 'slotpool', '')], v[('per-request', 'hikari', '')]
        pr = float(s['requests_per_s']) / float(h['requests_per_s'])
        med[name]['per request'].append(pr)
        out.append(f"per-request {pr:.2f}x")
    except KeyError:
        pass
    print(f"{name} round {rnd}: " + "; ".join(out))
for name, m in med.items():
    print(f"{name} medians: " + "; ".join(f"{k} {statistics.median(x):.2f} ({len(x)})" for k, x in m.items()))
