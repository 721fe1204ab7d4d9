# The head signal's cost, from a bench-only build that drops it (no-signal.patch). Per variant (head: the engine as
# at a1dcc5b with counters; nosig: the same jar with -Dslotpool.bench.noSignal=true) and thread count: slotpool's
# borrows/s, ÷ HikariCP in the same run (second sitting, hk-*), fewest ÷ median, CPU µs per borrow, 10,000 ÷ 1,000
# (first sitting); and per invocation the engine's parks and unparks per 1,000 borrows (whole JVM, warm-up included).
# usage: python3 summ.py [VARIANT ...] (in the results directory; default: head nosig). ../watch uses it too, with
# variants head and watch, and big-* for its slotpool-alone invocations.
import collections, csv, glob, re, statistics, sys

variants = sys.argv[1:] or ["head", "nosig"]

runs = collections.defaultdict(dict)   # (sitting, variant, round) -> {(pool, threads): row}
for f in glob.glob("*/platform-runs.csv"):
    d = f.split("/")[0]
    sitting = 2 if d.startswith("hk-") else 1
    variant, rnd = d.removeprefix("hk-").removeprefix("big-").rsplit("-", 1)
    for r in csv.DictReader(open(f)):
        runs[(sitting, variant, int(rnd))][(r["pool"], int(r["threads"]))] = r

def cells(sitting, variant):
    return [v for k, v in sorted(runs.items()) if k[0] == sitting and k[1] == variant]

fmt = lambda xs, p="%.2f": " ".join(p % x for x in xs)
for sitting in (1, 2):
    print("## sitting %d" % sitting)
    for variant in variants:
        rs = cells(sitting, variant)
        threads = sorted({t for r in rs for (p, t) in r if p == "slotpool"})
        for t in threads:
            sp = [r[("slotpool", t)] for r in rs]
            line = "%-5s %6d threads  borrows/s %s" % (variant, t, fmt([float(x["borrows_per_s"]) / 1e6 for x in sp], "%.2fM"))
            if all(("hikari", t) in r for r in rs):
                ratio = [float(r[("slotpool", t)]["borrows_per_s"]) / float(r[("hikari", t)]["borrows_per_s"]) for r in rs]
                line += "  / HikariCP %s (median %.2f)" % (fmt(ratio), statistics.median(ratio))
            fair = [float(x["fairness"]) for x in sp]
            cpu = [float(x["cpu_us_per_borrow"]) for x in sp]
            line += "  fewest/median %s (median %.2f)  CPU us/borrow %s (median %.2f)" % (
                fmt(fair), statistics.median(fair), fmt(cpu), statistics.median(cpu))
            print(line)
        if all(("slotpool", 10000) in r and ("slotpool", 1000) in r for r in rs) and rs:
            q = [float(r[("slotpool", 10000)]["borrows_per_s"]) / float(r[("slotpool", 1000)]["borrows_per_s"]) for r in rs]
            print("%-5s 10,000 / 1,000: %s (median %.2f)" % (variant, fmt(q), statistics.median(q)))
    print()
logs = [f for f in sorted(glob.glob("*.log")) if "park-count" in open(f).read()]
if logs:
    print("## parks and unparks per 1,000 borrows, per invocation")
for f in logs:
    m = re.search(r"park-count borrows=(\d+) awaits=(\d+) parks=(\d+) unparks=(\d+) wakes=(\d+) signals=(\d+)", open(f).read())
    if m:
        b, a, p, u, w, s = map(int, m.groups())
        print("%-16s parks %.1f  unparks %.1f (hand-off wakes %.1f, head signals %.1f)"
              % (f[:-4], 1e3 * p / b, 1e3 * u / b, 1e3 * w / b, 1e3 * s / b))
