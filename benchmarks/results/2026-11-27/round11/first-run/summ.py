#!/usr/bin/env python3
"""PostgreSQL at 10 threads on 5 connections, the harness before (slotpool first in every run, no warm-up pass) and
after (a warm-up pass, each run one pool further along): per build and run index, slotpool's tx/s ÷ HikariCP's and
each pool's client CPU per transaction. Run from this directory after ../../round7/run.sh pg10."""
import collections, csv, glob, statistics

cells = collections.defaultdict(list)
for path in sorted(glob.glob("pg10-*-*/runs.csv")):
    build = path.split("-")[1]
    rows = list(csv.DictReader(open(path)))
    for s in (r for r in rows if r["pool"] == "slotpool"):
        h = next(r for r in rows if r["pool"] == "hikari" and r["run"] == s["run"])
        cells[(build, s["run"])].append((float(s["ratio_to_hikari"]), float(s["client_cpu_us_per_tx"]),
                                         float(h["client_cpu_us_per_tx"])))
print("| harness | run | invocations | tx/s ÷ HikariCP, median (range) | client CPU µs/tx, slotpool / HikariCP |")
print("|---|--:|--:|---|---|")
for (build, run), v in sorted(cells.items(), key=lambda kv: (kv[0][0] != "before", kv[0][1])):
    ratios = sorted(x[0] for x in v)
    print(f"| {build} | {run} | {len(v)} | {statistics.median(ratios):.2f} ({ratios[0]:.2f} to {ratios[-1]:.2f}) | "
          f"{statistics.median(x[1] for x in v):.1f} / {statistics.median(x[2] for x in v):.1f} |")
for build in sorted({b for b, _ in cells}, key=lambda b: b != "before"):
    ratios = [x[0] for (b, _), v in cells.items() if b == build for x in v]
    print(f"{build}: all runs, median {statistics.median(ratios):.2f} ({len(ratios)} runs)")
