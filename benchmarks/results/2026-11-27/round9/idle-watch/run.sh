#!/usr/bin/env bash
# The idle watch (docs/architecture.md, "Turns"): a return in a turn wakes nobody, and the table's watch signals
# the head only for a slot left unused from one look to the next. The build before (80d88ab) and the build with the
# watch (022d267) alternated round by round, each invocation under the benchmark lock ($LOCK, if set). Per round
# and build:
#   hk-*:   the stub, slotpool and HikariCP, 10, 100 and 1,000 platform threads on 6 connections (1 s + 3 s)
#   big-*:  the stub, slotpool alone, 1,000 and 10,000 platform threads on 6 connections (1 s + 3 s)
#   held-*: 1,000 threads holding each connection 1 ms, slotpool and HikariCP
#   jmh-*:  ConnectionCycleBenchmark, one fork
#   pg-*:   PostgreSQL, pgbench-like, 10, 100 and 1,000 threads on 5 and 10 connections, 2 runs
# Usage: [LOCK=file] [PG_GRID="--threads T --connections C"] run.sh FIRST LAST BEFORE_JAR WATCH_JAR [PARTS]
#   PARTS: any of hk big held jmh pg (default all); PG_GRID narrows pg-* to some cells
first=$1; last=$2; before=$3; after=$4; parts=${5:-"hk big held jmh pg"}
pg_grid=${PG_GRID:-"--threads 10,100,1000 --connections 5,10"}
locked() { if [ -n "$LOCK" ]; then flock "$LOCK" "$@"; else "$@"; fi; }
has() { [[ " $parts " == *" $1 "* ]]; }
for r in $(seq "$first" "$last"); do
  for v in head watch; do
    if [ "$v" = head ]; then jar=$before; else jar=$after; fi
    has hk && locked java -Xss256k -cp "$jar" dev.slotpool.bench.scaling.ThreadScaling --mode scaling --platform \
        --pools slotpool,hikari --threads 10,100,1000 --runs 1 --warmup 1s --window 3s --connections 6 \
        --out "hk-$v-$r" > "hk-$v-$r.log" 2>&1
    has big && locked java -Xss256k -cp "$jar" dev.slotpool.bench.scaling.ThreadScaling --mode scaling --platform \
        --pools slotpool --threads 1000,10000 --runs 1 --warmup 1s --window 3s --connections 6 \
        --out "big-$v-$r" > "big-$v-$r.log" 2>&1
    has held && locked java -Xss256k -cp "$jar" dev.slotpool.bench.scaling.ThreadScaling --mode held --platform \
        --pools slotpool,hikari --threads 1000 --runs 1 --connections 6 --out "held-$v-$r" > "held-$v-$r.log" 2>&1
    has jmh && locked java -jar "$jar" ConnectionCycleBenchmark -p pool=slotpool,hikari -f 1 -wi 2 -w 1s -i 3 -r 1s \
        -prof gc -rf json -rff "jmh-$v-$r.json" > "jmh-$v-$r.log" 2>&1
    has pg && locked java -cp "$jar" dev.slotpool.bench.pg.PostgresTransactions --pools slotpool,hikari \
        $pg_grid --runs 2 --warmup 2s --window 5s --out "pg-$v-$r" > "pg-$v-$r.log" 2>&1
  done
done
