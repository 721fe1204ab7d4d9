#!/usr/bin/env bash
# PostgreSQL, 10 connections, 1,000 threads, 2 runs per invocation: the build before (head), the idle watch looking
# every turn (watch, 250 µs by default) and a build looking every 1 ms whatever the turn (watch1ms), in turn.
# Usage: [LOCK=file] [VARIANTS="head watch"] run.sh FIRST LAST HEAD_JAR WATCH_JAR WATCH1MS_JAR
first=$1; last=$2; declare -A jars=([head]=$3 [watch]=$4 [watch1ms]=$5)
locked() { if [ -n "$LOCK" ]; then flock "$LOCK" "$@"; else "$@"; fi; }
for r in $(seq "$first" "$last"); do
  for v in ${VARIANTS:-head watch watch1ms}; do
    locked java -cp "${jars[$v]}" dev.slotpool.bench.pg.PostgresTransactions --pools slotpool,hikari \
        --threads 1000 --connections 10 --runs 2 --warmup 2s --window 5s --out "pg-$v-$r" > "pg-$v-$r.log" 2>&1
  done
done
