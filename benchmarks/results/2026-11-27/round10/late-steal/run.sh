#!/usr/bin/env bash
# A borrower that misses takes back any hand-off still unclaimed after a bound (bench-only, late-steal.patch),
# against the build before: PostgreSQL, pgbench-like, 100 and 1,000 threads on 5 and 10 connections, slotpool
# beside HikariCP, 2 runs per invocation; each round runs every variant once in a rotated order, each invocation
# under the benchmark lock ($LOCK, if set).
# Usage: [LOCK=file] run.sh FIRST LAST BEFORE_JAR STEAL_JAR BOUND_US...   e.g. run.sh 1 2 before.jar steal.jar 100 300
first=$1; last=$2; before=$3; steal=$4; shift 4
variants=(before "$@")
locked() { if [ -n "$LOCK" ]; then flock "$LOCK" "$@"; else "$@"; fi; }
for r in $(seq "$first" "$last"); do
  n=${#variants[@]}
  for k in $(seq 0 $((n - 1))); do
    v=${variants[$(((k + r) % n))]}
    if [ "$v" = before ]; then jar=$before; flags=(); name=before
    else jar=$steal; flags=("-Dslotpool.bench.stealNanos=$((v * 1000))"); name="steal$v"; fi
    locked java "${flags[@]}" -cp "$jar" dev.slotpool.bench.pg.PostgresTransactions --pools slotpool,hikari \
        --threads 100,1000 --connections 5,10 --runs 2 --warmup 2s --window 5s --out "$name-$r" > "$name-$r.log" 2>&1
  done
done
