#!/usr/bin/env python3
"""Per run of lag-*.log: the hand-off lag (from a returner's hand-off to its parked waiter running again), the
share of transactions that went through a hand-off, and the idle probe's gap per transaction on each connection
(from a commit to the next borrow's return), for slotpool beside HikariCP's gap. Both probes count warm-up too."""
import glob, os, re

here = os.path.dirname(os.path.abspath(__file__))
print("| connections | threads | run | hand-offs ÷ transactions | lag mean µs | lag p10 / p50 / p90 / p99 µs "
      "| share × mean lag µs | slotpool idle gap µs | HikariCP idle gap µs |")
print("|--:|--:|--:|--:|--:|---|--:|--:|--:|")
for path in sorted(glob.glob(os.path.join(here, "lag-*.log"))):
    idle = None
    runs = {}
    for line in open(path):
        m = re.match(r"TransactionCell\[pool=(\w+), connections=(\d+), threads=(\d+)\] idle-probe idle_us=([\d.]+) "
                     r"close_us=([\d.]+) n=(\d+)", line)
        if m:
            idle = m.groups()
            continue
        m = re.match(r"\[\d+/\d+\] (\d+) connections, (\d+) threads, run (\d+), (\w+):", line)
        if m:
            key = (int(m.group(1)), int(m.group(2)), int(m.group(3)))
            runs.setdefault(key, {})[m.group(4)] = {"idle": float(idle[3]), "n": int(idle[5])}
            last = key
            continue
        m = re.match(r"\s+handoff-lag n=(\d+) mean=([\d.]+) p10=([\d.]+) p50=([\d.]+) p90=([\d.]+) p99=([\d.]+)", line)
        if m:
            runs[last]["slotpool"]["lag"] = [float(x) for x in m.groups()]
    for (c, t, r), v in sorted(runs.items()):
        s, h = v["slotpool"], v["hikari"]
        n, mean, p10, p50, p90, p99 = s["lag"]
        share = n / s["n"]
        print(f"| {c} | {t:,} | {r} | {share:.2f} | {mean:.0f} | {p10:.0f} / {p50:.0f} / {p90:.0f} / {p99:.0f} "
              f"| {share * mean:.0f} | {s['idle']:.0f} | {h['idle']:.0f} |")
