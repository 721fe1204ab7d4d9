#!/usr/bin/env bash
# The head signal's cost: one jar built with no-signal.patch (the engine as at a1dcc5b, plus counters of parks,
# unparks and borrows printed at exit, plus -Dslotpool.bench.noSignal=true to drop the signal of an in-turn return),
# run without the property (head) and with it (nosig), alternated round by round, each invocation under the
# benchmark lock ($LOCK, if set). 6 connections, 1 s warm-up, 3 s window, one run per thread count.
#   sitting 1 (head-N, nosig-N):        slotpool alone, 100, 1,000 and 10,000 threads
#   sitting 2 (hk-head-N, hk-nosig-N):  slotpool and HikariCP, 10, 100 and 1,000 threads
# Usage: [LOCK=file] run.sh SITTING FIRST LAST JAR     e.g. run.sh 2 1 3 no-signal.jar
sitting=$1; first=$2; last=$3; jar=$4
locked() { if [ -n "$LOCK" ]; then flock "$LOCK" "$@"; else "$@"; fi; }
if [ "$sitting" = 1 ]; then pools=slotpool; threads=100,1000,10000; prefix=""
else pools=slotpool,hikari; threads=10,100,1000; prefix="hk-"; fi
for r in $(seq "$first" "$last"); do
  for v in head nosig; do
    prop=""; [ "$v" = nosig ] && prop="-Dslotpool.bench.noSignal=true"
    locked java $prop -Xss256k -cp "$jar" dev.slotpool.bench.scaling.ThreadScaling --mode scaling --platform \
        --pools "$pools" --threads "$threads" --runs 1 --warmup 1s --window 3s --connections 6 \
        --out "$prefix$v-$r" > "$prefix$v-$r.log" 2>&1
  done
done
