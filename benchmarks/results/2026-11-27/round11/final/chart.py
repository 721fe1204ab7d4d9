# Issue 28's PostgreSQL cells, one dot per run (pg-*/runs.csv): slotpool's tx/s ÷ HikariCP's against the target
# of 1; and, from 100 threads up, slotpool's p99.9 ÷ ideal beside the FIFO floor of the same run and the target
# of 1.5 (HikariCP's, 15 to 42, is off the scale and written in the title).
# usage: PYTHONPATH=<matplotlib> python3 chart.py OUT.png
import collections, csv, glob, sys
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt

runs = collections.defaultdict(list)
for f in sorted(glob.glob("pg-*/runs.csv")):
    for r in csv.DictReader(open(f)):
        if r["tx_per_s"]:
            runs[(int(r["connections"]), int(r["threads"]), r["pool"])].append(r)
cells = sorted({(c, t) for c, t, _ in runs}, key=lambda k: (k[1], k[0]))
label = lambda c, t: "%d conn.\n%s threads" % (c, format(t, ","))
values = lambda c, t, pool, col: [float(r[col]) for r in runs[(c, t, pool)]]

fig, (a, b) = plt.subplots(1, 2, figsize=(11, 4.2))
for i, (c, t) in enumerate(cells):
    v = values(c, t, "slotpool", "ratio_to_hikari")
    a.scatter([i] * len(v), v, color="tab:blue", s=18)
a.axhline(1, color="black", linestyle="--", linewidth=1, label="issue 28's target")
a.set_xticks(range(len(cells)), [label(c, t) for c, t in cells], fontsize=8)
a.set_ylabel("tx/s ÷ HikariCP's, same run")
a.set_title("Throughput, slotpool ÷ HikariCP", fontsize=10)
a.legend(fontsize=8)
tail = [k for k in cells if k[1] >= 100]
hikari = [x for c, t in tail for x in values(c, t, "hikari", "p999_over_ideal")]
for i, (c, t) in enumerate(tail):
    v = values(c, t, "slotpool", "p999_over_ideal")
    b.scatter([i - 0.1] * len(v), v, color="tab:blue", s=18, label="slotpool, measured" if i == 0 else None)
    v = values(c, t, "slotpool", "fifo_floor")
    b.scatter([i + 0.1] * len(v), v, color="tab:orange", s=18, label="FIFO floor of the run" if i == 0 else None)
b.axhline(1.5, color="black", linestyle="--", linewidth=1, label="issue 28's target")
b.set_xticks(range(len(tail)), [label(c, t) for c, t in tail], fontsize=8)
b.set_ylabel("p99.9 latency ÷ ideal")
b.set_ylim(0, 4.5)
b.set_title("Tail against the floor (HikariCP: %.0f to %.0f, off scale)" % (min(hikari), max(hikari)), fontsize=10)
b.legend(fontsize=8, loc="upper right")
fig.suptitle("PostgreSQL, pgbench-like, 2 cores: 6 runs per cell, 2026-11-27, eighth sitting", fontsize=11)
fig.tight_layout()
fig.savefig(sys.argv[1], dpi=110)
