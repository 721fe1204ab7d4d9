#!/usr/bin/env bash
# A safe variant of the no-signal bound, bench-only (watch.patch): a thread of the table looks once per turn while
# threads wait and tells the head; in-turn returns signal nobody. The build before (the engine as at a1dcc5b) and
# the watch build (-Dslotpool.bench.watch=true) alternated round by round, each invocation under the benchmark lock
# ($LOCK, if set); 6 connections, 1 s warm-up, 3 s window, one run per thread count.
#   hk-*:  slotpool and HikariCP, 10, 100 and 1,000 threads
#   big-*: slotpool alone, 1,000 and 10,000 threads
# Usage: [LOCK=file] run.sh FIRST LAST BEFORE_JAR WATCH_JAR
first=$1; last=$2; before=$3; watched=$4
locked() { if [ -n "$LOCK" ]; then flock "$LOCK" "$@"; else "$@"; fi; }
for r in $(seq "$first" "$last"); do
  for v in head watch; do
    if [ "$v" = head ]; then jar=$before; prop=""; else jar=$watched; prop="-Dslotpool.bench.watch=true"; fi
    locked java $prop -Xss256k -cp "$jar" dev.slotpool.bench.scaling.ThreadScaling --mode scaling --platform \
        --pools slotpool,hikari --threads 10,100,1000 --runs 1 --warmup 1s --window 3s --connections 6 \
        --out "hk-$v-$r" > "hk-$v-$r.log" 2>&1
    locked java $prop -Xss256k -cp "$jar" dev.slotpool.bench.scaling.ThreadScaling --mode scaling --platform \
        --pools slotpool --threads 1000,10000 --runs 1 --warmup 1s --window 3s --connections 6 \
        --out "big-$v-$r" > "big-$v-$r.log" 2>&1
  done
done
