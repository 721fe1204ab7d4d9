#!/usr/bin/env bash
# Issue 28's other cells on the engine as on main, slotpool beside HikariCP: PostgreSQL at 10 threads on 5
# connections (2 runs per invocation) and the stub at 10 and 100 platform threads on 6 connections (3 runs per
# invocation), alternated round by round, each invocation under the benchmark lock ($LOCK, if set).
# Usage: [LOCK=file] run.sh FIRST LAST JAR
first=$1; last=$2; jar=$3
locked() { if [ -n "$LOCK" ]; then flock "$LOCK" "$@"; else "$@"; fi; }
for r in $(seq "$first" "$last"); do
  locked java -cp "$jar" dev.slotpool.bench.pg.PostgresTransactions --pools slotpool,hikari --threads 10 \
      --connections 5 --runs 2 --warmup 2s --window 5s --out "pg-$r" > "pg-$r.log" 2>&1
  locked java -Xss256k -cp "$jar" dev.slotpool.bench.scaling.ThreadScaling --mode scaling --platform \
      --pools slotpool,hikari --threads 10,100 --runs 3 --warmup 1s --window 3s --connections 6 \
      --out "stub-$r" > "stub-$r.log" 2>&1
done
