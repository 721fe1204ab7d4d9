#!/usr/bin/env python3
"""The other cells' medians: the stub's borrows/s ÷ HikariCP's per run (same JVM, same run index) and fewest ÷
median at 10 and 100 threads; PostgreSQL at 10 threads on 5 connections, tx/s ÷ HikariCP and p99.9 ÷ ideal."""
import csv, glob, os, statistics

here = os.path.dirname(os.path.abspath(__file__))
stub = {}
for path in sorted(glob.glob(os.path.join(here, "stub-*", "platform-runs.csv"))):
    rows = list(csv.DictReader(open(path)))
    for r in rows:
        if r["pool"] != "slotpool":
            continue
        h = next(x for x in rows if x["pool"] == "hikari" and x["threads"] == r["threads"] and x["run"] == r["run"])
        stub.setdefault(int(r["threads"]), []).append(
            (float(r["borrows_per_s"]) / float(h["borrows_per_s"]), float(r["fairness"]), float(h["fairness"])))
print("| stub, threads | runs | borrows/s ÷ HikariCP, median (range) | fewest ÷ median, slotpool / HikariCP |")
print("|--:|--:|---|---|")
for t, v in sorted(stub.items()):
    ratios = sorted(x[0] for x in v)
    print(f"| {t:,} | {len(v)} | {statistics.median(ratios):.2f} ({ratios[0]:.2f} to {ratios[-1]:.2f}) | "
          f"{statistics.median(x[1] for x in v):.2f} / {statistics.median(x[2] for x in v):.2f} |")
pg = {}
for path in sorted(glob.glob(os.path.join(here, "pg-*", "runs.csv"))):
    for r in csv.DictReader(open(path)):
        pg.setdefault(r["pool"], []).append(r)
s, h = pg["slotpool"], pg["hikari"]
ratios = sorted(float(r["ratio_to_hikari"]) for r in s)
print()
print("| PostgreSQL | runs | tx/s ÷ HikariCP, median (range) | p99.9 ÷ ideal, slotpool (HikariCP) |")
print("|---|--:|---|---|")
print(f"| 10 threads, 5 connections | {len(s)} | {statistics.median(ratios):.2f} ({ratios[0]:.2f} to {ratios[-1]:.2f}) | "
      f"{statistics.median(float(r['p999_over_ideal']) for r in s):.2f} "
      f"({statistics.median(float(r['p999_over_ideal']) for r in h):.2f}) |")
