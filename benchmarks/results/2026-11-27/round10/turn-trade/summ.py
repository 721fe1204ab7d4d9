#!/usr/bin/env python3
"""Medians per variant and cell over every run of every round in DIR (default: this script's own): slotpool's
tx/s ÷ HikariCP's (same run), p99.9 ÷ ideal of both pools, FIFO floor, work, busy share, the fewest-served thread
÷ the median, and, where the logs count them (late-steal's build), the share of hand-offs taken back. A variant is
a run directory's name without its round (`default-1` → `default`).
Usage: summ.py [DIR [VARIANT...]]     e.g. summ.py ../late-steal before steal100 steal300"""
import csv, glob, os, re, statistics, sys

here = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
order = sys.argv[2:] or ["default", "1ms", "2500us", "5ms"]
rows, steals = {}, {}
for path in sorted(glob.glob(os.path.join(here, "*-*", "runs.csv"))):
    v = os.path.basename(os.path.dirname(path)).rsplit("-", 1)[0]
    for r in csv.DictReader(open(path)):
        rows.setdefault((v, r["pool"], int(r["connections"]), int(r["threads"])), []).append(r)
for path in glob.glob(os.path.join(here, "*-*.log")):
    v = os.path.basename(path).rsplit("-", 1)[0]
    cell = None
    for line in open(path):
        m = re.match(r"\[\d+/\d+\] (\d+) connections, (\d+) threads, run \d+, slotpool:", line)
        if m:
            cell = (int(m.group(1)), int(m.group(2)))
            continue
        m = re.match(r"\s+steal-count handoffs=(\d+) steals=(\d+)", line)
        if m and cell:
            steals.setdefault((v, *cell), []).append(int(m.group(2)) / max(1, int(m.group(1))))
            cell = None

def med(rs, key):
    return statistics.median(float(r[key]) for r in rs)

print("| variant | connections | threads | runs | tx/s ÷ HikariCP (range) | p99.9 ÷ ideal, slotpool (HikariCP) "
      "| FIFO floor | work ms, slotpool | busy, slotpool / HikariCP | fewest ÷ median, slotpool / HikariCP |"
      + (" steals ÷ hand-offs |" if steals else ""))
print("|---|--:|--:|--:|---|---|--:|--:|---|---|" + ("--:|" if steals else ""))
for v in order:
    for conns in (5, 10):
        for threads in (100, 1000):
            s = rows.get((v, "slotpool", conns, threads))
            h = rows.get((v, "hikari", conns, threads))
            if not s or not h:
                continue
            ratios = sorted(float(r["ratio_to_hikari"]) for r in s)
            st = steals.get((v, conns, threads))
            print(f"| {v} | {conns} | {threads:,} | {len(s)} | {statistics.median(ratios):.2f} "
                  f"({ratios[0]:.2f} to {ratios[-1]:.2f}) | {med(s, 'p999_over_ideal'):.2f} "
                  f"({med(h, 'p999_over_ideal'):.1f}) | {med(s, 'fifo_floor'):.2f} | {med(s, 'work_ms'):.3f} | "
                  f"{med(s, 'busy_share'):.2f} / {med(h, 'busy_share'):.2f} | "
                  f"{med(s, 'fairness'):.2f} / {med(h, 'fairness'):.2f} |"
                  + ((f" {statistics.median(st):.2f} |" if st else " — |") if steals else ""))
errors = sum(int(r["errors"]) + int(r["balance_drift"] != "0") for rs in rows.values() for r in rs)
print(f"\nRuns: {sum(len(v) for v in rows.values())}; errors and balance drifts: {errors}")
