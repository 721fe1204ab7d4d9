#!/usr/bin/env bash
# slotpool's turnDuration on PostgreSQL: how much throughput a longer turn buys and what it costs the tail.
# pgbench-like, 100 and 1,000 threads on 5 and 10 connections, slotpool beside HikariCP as it ships, 2 runs per
# invocation; each round runs every turn once, in a rotated order, each invocation under the benchmark lock
# ($LOCK, if set). "default" runs slotpool as it ships (250 µs).
# Usage: [LOCK=file] run.sh FIRST LAST JAR TURN...     e.g. run.sh 1 2 benchmarks.jar default 1ms 2500us 5ms
first=$1; last=$2; jar=$3; shift 3
turns=("$@")
locked() { if [ -n "$LOCK" ]; then flock "$LOCK" "$@"; else "$@"; fi; }
for r in $(seq "$first" "$last"); do
  n=${#turns[@]}
  for k in $(seq 0 $((n - 1))); do
    t=${turns[$(((k + r) % n))]}
    extra=()
    [ "$t" != default ] && extra=(--slotpool-turn "$t")
    locked java -cp "$jar" dev.slotpool.bench.pg.PostgresTransactions --pools slotpool,hikari --threads 100,1000 \
        --connections 5,10 --runs 2 --warmup 2s --window 5s "${extra[@]}" --out "$t-$r" > "$t-$r.log" 2>&1
  done
done
