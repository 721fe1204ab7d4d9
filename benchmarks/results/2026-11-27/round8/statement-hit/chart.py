# Draws docs/img/statement-cycle-hit-path.png from the two sittings: slotpool's statement cycle with the cache on,
# divided by HikariCP's in the same JMH invocation, one dot per run, a bar at each build's median.
# usage (from this directory): python3 chart.py ../../../../../docs/img/statement-cycle-hit-path.png
import json, glob, statistics, sys
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt

def ratios(sitting, build):
    out = []
    for f in sorted(glob.glob(f"{sitting}/{build}-*.json")):
        try:
            data = json.load(open(f))
        except ValueError:
            continue
        s = {(b["params"]["pool"], b["params"]["statementCacheSize"]): b["primaryMetric"]["score"] for b in data}
        if ("hikari", "0") in s and ("slotpool", "16") in s:
            out.append(s[("slotpool", "16")] / s[("hikari", "0")])
    return out

cells = [("sitting 1\nbefore", "sitting1", "head"), ("sitting 1\nhit path", "sitting1", "new"),
         ("sitting 2\nbefore", "sitting2", "head"), ("sitting 2\nhit path", "sitting2", "hit"),
         ("sitting 2\n+ last one outside", "sitting2", "recent")]
fig, ax = plt.subplots(figsize=(8, 4))
for x, (label, sitting, build) in enumerate(cells):
    r = ratios(sitting, build)
    ax.scatter([x] * len(r), r, color="tab:blue", alpha=0.6, zorder=3)
    ax.hlines(statistics.median(r), x - 0.3, x + 0.3, color="black", zorder=4)
ax.axhline(1.0, color="grey", linestyle="--", linewidth=1)
ax.axhline(1.5, color="tab:red", linestyle=":", linewidth=1, label="issue 28's target (1.5)")
ax.set_xticks(range(len(cells)), [c[0] for c in cells])
ax.set_ylabel("cache on ÷ HikariCP, same run")
ax.set_title("JMH statement cycle, 2 threads, statementCacheSize=16 (bar: median)")
ax.set_ylim(0, 1.7)
ax.legend(loc="upper left")
fig.tight_layout()
fig.savefig(sys.argv[1], dpi=110)
