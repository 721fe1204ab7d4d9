# Per cell (connections, threads) and pool, medians over every run of every invocation (pg-*/runs.csv): tx/s ÷
# HikariCP, p99.9 ÷ ideal, the FIFO floor, p99.9 ÷ ideal over the floor, work ms, busy share, and the idle time
# per transaction that busy leaves: (1 - busy) × connections ÷ tx/s.
# usage: python3 summ.py (in this directory)
import collections, csv, glob, statistics

rows = collections.defaultdict(list)
for f in sorted(glob.glob("pg-*/runs.csv")):
    for r in csv.DictReader(open(f)):
        if r["tx_per_s"]:
            rows[(int(r["connections"]), int(r["threads"]), r["pool"])].append(r)

def med(rs, f):
    return statistics.median(f(r) for r in rs)

print("| connections | threads | pool | runs | tx/s ÷ HikariCP | p99.9 ÷ ideal | FIFO floor | p99.9 ÷ floor "
      "| work ms | busy | idle µs per transaction |")
print("|--:|--:|---|--:|--:|--:|--:|--:|--:|--:|--:|")
for key in sorted(rows, key=lambda k: (k[0], k[1], k[2] != "slotpool")):
    rs = rows[key]
    g = lambda name: (lambda r: float(r[name]))
    print("| %d | %s | %s | %d | %.2f | %.2f | %.2f | %.2f | %.3g | %.2f | %.0f |" % (
        key[0], format(key[1], ","), key[2], len(rs), med(rs, g("ratio_to_hikari")), med(rs, g("p999_over_ideal")),
        med(rs, g("fifo_floor")), med(rs, lambda r: float(r["p999_over_ideal"]) / float(r["fifo_floor"])),
        med(rs, g("work_ms")), med(rs, g("busy_share")),
        med(rs, lambda r: (1 - float(r["busy_share"])) * key[0] / float(r["tx_per_s"]) * 1e6)))
