#!/usr/bin/env bash
# A steal bounded by the wake-up lag, first bound: PostgreSQL, pgbench-like, 100 threads on 5 and 10 connections,
# slotpool and HikariCP, 2 runs per invocation. Builds and bounds alternated round by round, each run under the
# benchmark lock ($LOCK, if set).
#   head:     the engine as at 60990a7
#   stealN:   bounded-steal.patch on it, -Dslotpool.bench.stealNanos=N µs × 1000 (the patch reads the property)
# Rounds 1-3 ran head, steal0, steal100 (the patch without its counters); rounds 4-5 ran head, steal50, steal100,
# steal200 with the counters, which print "steal-count steals=... handoffs=..." at exit; rounds 6-10 (a second
# sitting) ran head and steal100 with the counters.
# Usage: [LOCK=file] run.sh FIRST LAST HEAD_JAR STEAL_JAR VARIANT ...   e.g. run.sh 4 5 head.jar steal.jar head steal50
first=$1; last=$2; head_jar=$3; steal_jar=$4; shift 4
locked() { if [ -n "$LOCK" ]; then flock "$LOCK" "$@"; else "$@"; fi; }
for r in $(seq "$first" "$last"); do
  for v in "$@"; do
    if [ "$v" = head ]; then jar=$head_jar; prop=""
    else jar=$steal_jar; prop="-Dslotpool.bench.stealNanos=$(( ${v#steal} * 1000 ))"; fi
    locked java $prop -cp "$jar" dev.slotpool.bench.pg.PostgresTransactions --pools slotpool,hikari --threads 100 \
        --connections 5,10 --runs 2 --warmup 2s --window 5s --out "pg-$v-$r" > "pg-$v-$r.log" 2>&1
  done
done
