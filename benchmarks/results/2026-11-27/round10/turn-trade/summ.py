#!/usr/bin/env python3
"""Medians per turn and cell over every run of every round: slotpool's tx/s ÷ HikariCP's (same run), both pools'
p99.9 ÷ ideal and FIFO floor, busy share, and the fewest-served thread ÷ the median."""
import csv, glob, os, statistics, sys

here = os.path.dirname(os.path.abspath(__file__))
order = sys.argv[1:] or ["default", "1ms", "2500us", "5ms"]
rows = {}
for path in sorted(glob.glob(os.path.join(here, "*-*", "runs.csv"))):
    turn = os.path.basename(os.path.dirname(path)).rsplit("-", 1)[0]
    for r in csv.DictReader(open(path)):
        rows.setdefault((turn, r["pool"], int(r["connections"]), int(r["threads"])), []).append(r)

def med(rs, key):
    return statistics.median(float(r[key]) for r in rs)

print("| turn | connections | threads | runs | tx/s ÷ HikariCP (range) | p99.9 ÷ ideal, slotpool (HikariCP) "
      "| FIFO floor | busy, slotpool / HikariCP | fewest ÷ median, slotpool / HikariCP |")
print("|---|--:|--:|--:|---|---|--:|---|---|")
for turn in order:
    for conns in (5, 10):
        for threads in (100, 1000):
            s = rows.get((turn, "slotpool", conns, threads))
            h = rows.get((turn, "hikari", conns, threads))
            if not s or not h:
                continue
            ratios = sorted(float(r["ratio_to_hikari"]) for r in s)
            print(f"| {turn} | {conns} | {threads:,} | {len(s)} | {statistics.median(ratios):.2f} "
                  f"({ratios[0]:.2f} to {ratios[-1]:.2f}) | {med(s, 'p999_over_ideal'):.2f} "
                  f"({med(h, 'p999_over_ideal'):.1f}) | {med(s, 'fifo_floor'):.2f} | "
                  f"{med(s, 'busy_share'):.2f} / {med(h, 'busy_share'):.2f} | "
                  f"{med(s, 'fairness'):.2f} / {med(h, 'fairness'):.2f} |")
errors = sum(int(r["errors"]) + int(r["balance_drift"] != "0") for rs in rows.values() for r in rs)
print(f"\nRuns: {sum(len(v) for v in rows.values())}; errors and balance drifts: {errors}")
