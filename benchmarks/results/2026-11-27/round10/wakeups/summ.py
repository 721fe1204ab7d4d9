#!/usr/bin/env python3
"""Per invocation and pool: system-wide context switches, wake-ups and IPIs per transaction over the middle 10 s
of the pool's 15 s window (from 13 s to 3 s before its progress line, which comes after the teardown), divided by
the window's transactions per second from that line."""
import glob, os, re, statistics

here = os.path.dirname(os.path.abspath(__file__))
EVENTS = ["context-switches", "sched:sched_wakeup", "irq_vectors:reschedule_entry",
          "irq_vectors:call_function_single_entry"]
print("| cell | round | pool | tx/s | context switches per tx | wake-ups per tx | reschedule IPIs per tx "
      "| function-call IPIs per tx |")
print("|---|--:|---|--:|--:|--:|--:|--:|")
rows = []
for log in sorted(glob.glob(os.path.join(here, "c*-t*-*.log"))):
    base = log[:-4]
    start = float(open(base + ".start").read())
    per_second = {}
    for line in open(base + ".perf"):
        f = line.strip().split(",")
        if len(f) < 4 or f[0].startswith("#") or not f[1].isdigit():
            continue
        per_second.setdefault(f[3], []).append((float(f[0]), int(f[1])))
    for line in open(log):
        m = re.match(r"([\d.]+) \[\d+/\d+\] (\d+) connections, (\d+) threads, run \d+, (\w+): ([\d,]+) tx/s", line)
        if not m:
            continue
        end = float(m.group(1)) - start
        tx = float(m.group(5).replace(",", ""))
        cells = []
        for e in EVENTS:
            inside = [n for (t, n) in per_second.get(e, []) if end - 13 <= t - 1 and t <= end - 3]
            cells.append(statistics.mean(inside) / tx if inside else float("nan"))
        name = os.path.basename(base)
        c, t, r = re.match(r"c(\d+)-t(\d+)-(\d+)", name).groups()
        print(f"| {c} connections, {int(t):,} threads | {r} | {m.group(4)} | {tx:,.0f} | "
              + " | ".join(f"{x:.2f}" for x in cells) + " |")
