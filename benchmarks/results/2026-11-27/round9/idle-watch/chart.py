#!/usr/bin/env python3
# docs/img/idle-watch.png from summ.py's cells: the build before and the idle watch, medians of the rounds.
# usage: PYTHONPATH=<matplotlib> python3 chart.py OUT.png   (in this directory)
import subprocess, sys, re
import matplotlib
matplotlib.use('Agg')
import matplotlib.pyplot as plt

lines = subprocess.run([sys.executable, 'summ.py'], capture_output=True, text=True, check=True).stdout.splitlines()
med = {}
for line in lines:
    m = re.match(r'(.*?)\s+head:\s+([\d.]+) \(.*?\)\s+watch:\s+([\d.]+)', line)
    if m:
        med[m.group(1).strip()] = (float(m.group(2)), float(m.group(3)))

panels = [
    ('borrows/s ÷ HikariCP (stub, same run)', [('10', 'stub    10 threads: borrows/s ÷ HikariCP'),
                                                ('100', 'stub   100 threads: borrows/s ÷ HikariCP'),
                                                ('1,000', 'stub  1000 threads: borrows/s ÷ HikariCP')], 1.0),
    ('fewest ÷ median (stub)', [('10', 'stub    10 threads: fewest ÷ median'),
                                ('100', 'stub   100 threads: fewest ÷ median'),
                                ('1,000', 'stub  1000 threads: fewest ÷ median'),
                                ('10,000', '10,000 threads: fewest ÷ median')], 0.25),
    ('PostgreSQL tx/s ÷ HikariCP', [('5 c, 100', 'pg  5 connections  100 threads: tx/s ÷ HikariCP'),
                                    ('5 c, 1,000', 'pg  5 connections 1000 threads: tx/s ÷ HikariCP'),
                                    ('10 c, 100', 'pg 10 connections  100 threads: tx/s ÷ HikariCP'),
                                    ('10 c, 1,000', 'pg 10 connections 1000 threads: tx/s ÷ HikariCP')], 1.0),
]
fig, axes = plt.subplots(1, len(panels), figsize=(15, 4.2))
for ax, (title, cells, target) in zip(axes, panels):
    cells = [(label, key) for label, key in cells if key in med]
    xs = range(len(cells))
    ax.bar([x - 0.2 for x in xs], [med[k][0] for _, k in cells], 0.4, label='before (80d88ab)', color='#999999')
    ax.bar([x + 0.2 for x in xs], [med[k][1] for _, k in cells], 0.4, label='idle watch', color='#1f77b4')
    ax.axhline(target, color='#d62728', linestyle='--', linewidth=1, label='target')
    ax.set_xticks(list(xs))
    ax.set_xticklabels([label for label, _ in cells])
    ax.set_title(title, fontsize=10)
    ax.set_xlabel('threads')
axes[0].legend(fontsize=8)
fig.suptitle("The idle watch (not kept) against the build before: medians of alternated rounds, 2 cores", fontsize=10)
fig.tight_layout()
fig.savefig(sys.argv[1], dpi=100)
