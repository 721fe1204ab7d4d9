#!/usr/bin/env python3
"""The trade a longer turnDuration makes on PostgreSQL: per cell, slotpool's tx/s ÷ HikariCP's against its
p99.9 ÷ ideal for each turn (medians of the runs), with HikariCP's own point. Usage: chart.py OUT.png"""
import csv, glob, os, statistics, sys
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
import matplotlib.ticker

here = os.path.dirname(os.path.abspath(__file__))
turns = ["default", "1ms", "2500us", "5ms"]
labels = {"default": "250 µs (default)", "1ms": "1 ms", "2500us": "2.5 ms", "5ms": "5 ms"}
rows = {}
for path in glob.glob(os.path.join(here, "*-*", "runs.csv")):
    turn = os.path.basename(os.path.dirname(path)).rsplit("-", 1)[0]
    for r in csv.DictReader(open(path)):
        rows.setdefault((turn, r["pool"], int(r["connections"]), int(r["threads"])), []).append(r)

def med(rs, key):
    return statistics.median(float(r[key]) for r in rs)

cells = [(5, 100), (5, 1000), (10, 100), (10, 1000)]
fig, axes = plt.subplots(1, 4, figsize=(16, 4.2), sharey=True)
for ax, (conns, threads) in zip(axes, cells):
    xs, ys = [], []
    for t in turns:
        s = rows.get((t, "slotpool", conns, threads))
        if s:
            xs.append(med(s, "p999_over_ideal"))
            ys.append(med(s, "ratio_to_hikari"))
            ax.annotate(labels[t], (xs[-1], ys[-1]), textcoords="offset points", xytext=(5, 4), fontsize=8)
    ax.plot(xs, ys, "o-", color="tab:blue", label="slotpool, per turnDuration")
    hik = [r for t in turns for r in rows.get((t, "hikari", conns, threads), [])]
    if hik:
        ax.plot([med(hik, "p999_over_ideal")], [1.0], "s", color="tab:red", label="HikariCP (all runs)")
    ax.axhline(1.0, color="grey", lw=0.6)
    ax.axvline(1.5, color="grey", lw=0.6, ls="--")  # the tail target
    ax.set_xscale("log")
    ax.set_xlim(1.2, 50)
    ax.set_xticks([1.5, 2, 5, 10, 20, 40])
    ax.xaxis.set_major_formatter(matplotlib.ticker.FormatStrFormatter("%g"))
    ax.xaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
    ax.set_title(f"{conns} connections, {threads:,} threads", fontsize=10)
    ax.set_xlabel("p99.9 ÷ ideal (log)")
axes[0].set_ylabel("tx/s ÷ HikariCP, same run")
axes[0].legend(fontsize=8, loc="lower right")
fig.suptitle("PostgreSQL, pgbench-like: what a longer turn buys and costs (medians of runs)", fontsize=11)
fig.tight_layout()
fig.savefig(sys.argv[1], dpi=110)
