# Two panels over the four cells, medians of every run (pg-*/runs.csv): p99.9 ÷ ideal for slotpool beside the FIFO
# floor of its runs and the target of 1.5 (HikariCP's, 15 to 29, is off the scale and written in the title); and
# each pool's idle time per transaction, (1 - busy) × connections ÷ tx/s.
# usage: PYTHONPATH=<matplotlib> python3 chart.py OUT.png
import collections, csv, glob, statistics, sys
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt

rows = collections.defaultdict(list)
for f in sorted(glob.glob("pg-*/runs.csv")):
    for r in csv.DictReader(open(f)):
        if r["tx_per_s"]:
            rows[(int(r["connections"]), int(r["threads"]), r["pool"])].append(r)
cells = sorted({(k[0], k[1]) for k in rows})
labels = ["%d conn.\n%s threads" % (c, format(t, ",")) for c, t in cells]
med = lambda rs, f: statistics.median(f(r) for r in rs)
idle = lambda c, rs: med(rs, lambda r: (1 - float(r["busy_share"])) * c / float(r["tx_per_s"]) * 1e6)
hikari_tail = [med(rows[(c, t, "hikari")], lambda r: float(r["p999_over_ideal"])) for c, t in cells]

fig, (a, b) = plt.subplots(1, 2, figsize=(11, 4.2))
x = range(len(cells))
w = 0.38
a.bar([i - w / 2 for i in x], [med(rows[(c, t, "slotpool")], lambda r: float(r["p999_over_ideal"])) for c, t in cells],
      w, label="slotpool, measured")
a.bar([i + w / 2 for i in x], [med(rows[(c, t, "slotpool")], lambda r: float(r["fifo_floor"])) for c, t in cells],
      w, label="FIFO floor of the same runs")
a.axhline(1.5, color="black", linestyle="--", linewidth=1, label="issue 28's target")
a.set_xticks(list(x), labels)
a.set_ylabel("p99.9 latency ÷ ideal")
a.set_title("Tail against the floor (HikariCP: %.0f to %.0f, off scale)" % (min(hikari_tail), max(hikari_tail)),
            fontsize=10)
a.legend(fontsize=8, loc="upper right")
a.set_ylim(0, 2.5)
b.bar([i - w / 2 for i in x], [idle(c, rows[(c, t, "slotpool")]) for c, t in cells], w, label="slotpool")
b.bar([i + w / 2 for i in x], [idle(c, rows[(c, t, "hikari")]) for c, t in cells], w, label="HikariCP")
b.set_xticks(list(x), labels)
b.set_ylabel("µs a connection idles per transaction")
b.set_title("Between one transaction's commit and the next one's work", fontsize=10)
b.legend(fontsize=8)
fig.suptitle("PostgreSQL, pgbench-like, 2 cores: medians of 6 runs", fontsize=11)
fig.tight_layout()
fig.savefig(sys.argv[1], dpi=110)
