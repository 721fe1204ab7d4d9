#!/usr/bin/env python3
"""Per cell, medians of the runs: tx/s ÷ HikariCP, the machine's busy share, and the CPU per transaction split
into the client JVM's (measured) and the rest (the machine's busy time ÷ transactions, minus the client's: the
server's backends and the rest of the machine), for slotpool and HikariCP; and, where the runs counted them, how
often the server's processes went to sleep per transaction. Usage: summ.py [DIR] (default: this script's own)."""
import csv, glob, os, statistics, sys

here = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
CORES = os.cpu_count()
rows = {}
for path in sorted(glob.glob(os.path.join(here, "pg-*", "runs.csv"))):
    for r in csv.DictReader(open(path)):
        rows.setdefault((r["pool"], int(r["connections"]), int(r["threads"])), []).append(r)

def per_run(r):
    total = float(r["machine_busy"]) * CORES / float(r["tx_per_s"]) * 1e6
    client = float(r["client_cpu_us_per_tx"])
    return total, client, total - client

def med(values):
    return statistics.median(values)

print(f"CPUs: {CORES}")
print("| connections | threads | runs | tx/s ÷ HikariCP | machine busy, slotpool / HikariCP | CPU µs per transaction, "
      "slotpool / HikariCP | client JVM µs | the rest (server) µs | server sleeps per transaction |")
print("|--:|--:|--:|--:|---|---|---|---|---|")
for conns in (5, 10):
    for threads in (100, 1000):
        s, h = rows.get(("slotpool", conns, threads)), rows.get(("hikari", conns, threads))
        if not s or not h:
            continue
        sp, hp = [per_run(r) for r in s], [per_run(r) for r in h]
        print(f"| {conns} | {threads:,} | {len(s)} | {med(float(r['ratio_to_hikari']) for r in s):.2f} | "
              f"{med(float(r['machine_busy']) for r in s):.2f} / {med(float(r['machine_busy']) for r in h):.2f} | "
              + " | ".join(f"{med(x[i] for x in sp):.0f} / {med(x[i] for x in hp):.0f}" for i in range(3)) + " | "
              + (f"{med(float(r['server_sleeps_per_tx']) for r in s):.2f} / "
                 f"{med(float(r['server_sleeps_per_tx']) for r in h):.2f} |" if "server_sleeps_per_tx" in s[0] else "— |"))
