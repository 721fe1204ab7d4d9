#!/usr/bin/env bash
# Issue 28's PostgreSQL cells with the harness that warms the JVM up on every pool first and rotates the pools'
# order by run: pgbench-like, 10, 100 and 1,000 threads on 5 and 10 connections, slotpool beside HikariCP, 2 runs
# per invocation, each invocation under the benchmark lock ($LOCK, if set).
# Usage: [LOCK=file] run.sh FIRST LAST JAR
first=$1; last=$2; jar=$3
locked() { if [ -n "$LOCK" ]; then flock "$LOCK" "$@"; else "$@"; fi; }
for r in $(seq "$first" "$last"); do
  locked java -cp "$jar" dev.slotpool.bench.pg.PostgresTransactions --pools slotpool,hikari --threads 10,100,1000 \
      --connections 5,10 --runs 2 --warmup 2s --window 5s --out "pg-$r" > "pg-$r.log" 2>&1
done
