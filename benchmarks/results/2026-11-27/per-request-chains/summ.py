#!/usr/bin/env python3
"""Summarises run.sh's output: per harness (chain, dispatch), slotpool ÷ HikariCP run by run and its median, and
each pool's chain fairness. Usage: python3 summ.py [DIR_PREFIX ...] > summary.txt (default: chain dispatch)."""
import csv, glob, statistics as st, sys

def rows(arrivals):
    out = []
    for f in sorted(glob.glob(f'{arrivals}*/runs.csv')):
        inv = f.rsplit('/', 1)[0]
        for r in csv.DictReader(open(f)):
            r['inv'] = inv
            out.append(r)
    return out

def med(xs):
    return st.median(xs) if xs else float('nan')

for arrivals in sys.argv[1:] or ('chain-', 'dispatch-'):
    rs = rows(arrivals)
    if not rs:
        continue
    runs = {}
    for r in rs:
        runs.setdefault((r['inv'], r['run']), {})[r['pool']] = r
    ratios = [float(p['slotpool']['requests_per_s']) / float(p['hikari']['requests_per_s'])
              for p in runs.values() if 'slotpool' in p and 'hikari' in p]
    print(f'## {arrivals}* (--arrivals {rs[0]["arrivals"]}): {len(ratios)} runs in {len({k[0] for k in runs})} invocations')
    print(f'slotpool ÷ hikari per run: ' + ', '.join(f'{x:.2f}' for x in ratios) + f'; median {med(ratios):.2f}')
    for pool in ('slotpool', 'hikari'):
        mine = [r for r in rs if r['pool'] == pool]
        rate = [float(r['requests_per_s']) for r in mine]
        fewest = [float(r['chain_min']) / float(r['chain_median']) for r in mine]
        busiest = [float(r['chain_max']) / float(r['chain_median']) for r in mine]
        share = [float(r['chain_busiest_share']) for r in mine]
        cpu = [float(r['cpu_us_per_request']) for r in mine]
        line = (f'{pool}: requests/s median {med(rate):,.0f} (min {min(rate):,.0f}, max {max(rate):,.0f}); '
                f'CPU µs/request {med(cpu):.2f}; fewest ÷ median median {med(fewest):.2f} (lowest {min(fewest):.2f}); '
                f'busiest ÷ median median {med(busiest):.2f} (highest {max(busiest):.1f}); '
                f'busiest share median {100 * med(share):.1f} % (highest {100 * max(share):.1f} %)')
        if rs[0]['arrivals'] == 'dispatch':
            busy = [float(r['dispatcher_busy']) for r in mine]
            queued = [float(r['queued_at_dispatchers']) for r in mine]
            line += f'; dispatcher busy median {100 * med(busy):.0f} %; chains queued at it median {med(queued):.0f} of 200'
        print(line)
        if rs[0]['arrivals'] == 'chain' and pool == 'slotpool':
            kept = [float(r['requests_per_s']) for r in mine if float(r['chain_busiest_share']) > 0.10]
            even = [float(r['requests_per_s']) for r in mine if float(r['chain_busiest_share']) <= 0.10]
            print(f'  slotpool runs where one chain kept a carrier (busiest share > 10 %): {len(kept)}, requests/s median '
                  f'{med(kept):,.0f}; the other runs: {len(even)}, median {med(even):,.0f}')
    print()
