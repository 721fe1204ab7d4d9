# slotpool's tx/s ÷ HikariCP, p99.9 ÷ ideal and fewest ÷ median per variant and connection count, from each
# invocation's table (medians of its 2 runs), with the median over rounds; and the steals' share of hand-offs.
# usage: python3 summ.py (in this directory)
import collections, glob, re, statistics

cells = collections.defaultdict(list)
counts = collections.defaultdict(list)
for f in sorted(glob.glob("pg-*.log")):
    variant = f.split("-")[1]
    conns = None
    for line in open(f):
        m = re.match(r"## (\d+) connections", line)
        if m:
            conns = m[1]
        c = [x.strip() for x in line.split("|")]
        if len(c) > 10 and c[2] == "slotpool":
            cells[(variant, conns, "tx/s ratio")].append(float(c[4]))
            cells[(variant, conns, "p99.9/ideal")].append(float(c[9]))
            cells[(variant, conns, "fewest/median")].append(float(re.search(r"\(([\d.]+)\)", c[10])[1]))
        if len(c) > 10 and c[2] == "hikari":
            cells[(variant, conns, "HikariCP p99.9/ideal")].append(float(c[9]))
        m = re.match(r"steal-count steals=(\d+) handoffs=(\d+)", line)
        if m:
            counts[variant].append(int(m[1]) / int(m[2]))
for key in sorted(cells):
    v = cells[key]
    print("%-9s %2s connections  %-22s median %5.2f  runs %s"
          % (key[0], key[1], key[2], statistics.median(v), " ".join("%.2f" % x for x in v)))
for variant in sorted(counts):
    print("%-9s steals / hand-offs: %s" % (variant, " ".join("%.1f %%" % (100 * x) for x in counts[variant])))
