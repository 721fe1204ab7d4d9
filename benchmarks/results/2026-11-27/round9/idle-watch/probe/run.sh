#!/usr/bin/env bash
# Where PostgreSQL's time goes with the idle watch: both builds with round eight's idle probe applied
# (../../../round8/fifo-floor/idle-probe.patch, bench-only: on each physical connection, the mean gap from a commit
# to the next borrow's return, and each close), 10 connections at 100 and 1,000 threads, 2 runs per invocation, the
# builds alternated, each invocation under the benchmark lock ($LOCK, if set).
# Usage: [LOCK=file] run.sh FIRST LAST BEFORE_PROBE_JAR WATCH_PROBE_JAR
first=$1; last=$2; before=$3; after=$4
locked() { if [ -n "$LOCK" ]; then flock "$LOCK" "$@"; else "$@"; fi; }
for r in $(seq "$first" "$last"); do
  for v in head watch; do
    jar=$before; [ "$v" = watch ] && jar=$after
    locked java -cp "$jar" dev.slotpool.bench.pg.PostgresTransactions --pools slotpool,hikari --threads 100,1000 \
        --connections 10 --runs 2 --warmup 2s --window 5s --out "probe-$v-$r" > "probe-$v-$r.log" 2>&1
  done
done
