#!/usr/bin/env python3
"""Medians per variant and cell over every run of every round (tx/s ÷ HikariCP in the same run, p99.9 ÷ ideal,
FIFO floor, work, busy share, fewest ÷ median), and the share of hand-offs taken back, from the logs' steal counts."""
import csv, glob, os, re, statistics, sys

here = os.path.dirname(os.path.abspath(__file__))
order = sys.argv[1:] or ["before", "steal100", "steal300"]
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
      "| FIFO floor | work ms, slotpool | busy, slotpool / HikariCP | fewest ÷ median, slotpool / HikariCP | steals ÷ hand-offs |")
print("|---|--:|--:|--:|---|---|--:|--:|---|---|--:|")
for v in order:
    for conns in (5, 10):
        for threads in (100, 1000):
            s = rows.get((v, "slotpool", conns, threads))
            h = rows.get((v, "hikari", conns, threads))
            if not s or not h:
                continue
            ratios = sorted(float(r["ratio_to_hikari"]) for r in s if r["ratio_to_hikari"])
            st = steals.get((v, conns, threads))
            print(f"| {v} | {conns} | {threads:,} | {len(s)} | {statistics.median(ratios):.2f} "
                  f"({ratios[0]:.2f} to {ratios[-1]:.2f}) | {med(s, 'p999_over_ideal'):.2f} "
                  f"({med(h, 'p999_over_ideal'):.1f}) | {med(s, 'fifo_floor'):.2f} | {med(s, 'work_ms'):.3f} | "
                  f"{med(s, 'busy_share'):.2f} / {med(h, 'busy_share'):.2f} | "
                  f"{med(s, 'fairness'):.2f} / {med(h, 'fairness'):.2f} | "
                  + (f"{statistics.median(st):.2f} |" if st else "— |"))
