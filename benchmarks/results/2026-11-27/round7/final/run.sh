#!/usr/bin/env bash
# Issue 28's targets on one build, slotpool beside HikariCP in every run: 1,000 and 10,000 platform threads
# (slotpool), 1,000 threads holding 1 ms, thread per request on virtual threads, the stub at 10 and 100 threads,
# the JMH connection and statement cycles, and PostgreSQL at 10, 100 and 1,000 threads on 5 and 10 connections.
# With FUTEX_LIB (futex-hash/futexhash.c built as a shared library) the large-count cell runs a second time with
# the process's futex table at 16,384 buckets (docs/benchmarks.md, "10,000 threads: the kernel's futex table").
# Usage: J25=<Temurin 25 java> [LOCK=file] [FUTEX_LIB=libfutexhash.so] run.sh ROUNDS JAR   (from this directory)
rounds=$1; jar=$2
locked() { if [ -n "$LOCK" ]; then flock "$LOCK" "$@"; else "$@"; fi; }
for round in $(seq 1 $rounds); do
  uptime > load-$round.txt
  locked java -Xss256k -cp $jar dev.slotpool.bench.scaling.ThreadScaling --mode scaling --platform --pools slotpool \
    --threads 1000,10000 --runs 1 --warmup 1s --window 3s --connections 6 --out scaling-large-$round > scaling-large-$round.log 2>&1
  [ -z "$FUTEX_LIB" ] || locked env FUTEX_HASH_SLOTS=16384 LD_PRELOAD=$FUTEX_LIB java -Xss256k -cp $jar \
    dev.slotpool.bench.scaling.ThreadScaling --mode scaling --platform --pools slotpool --threads 1000,10000 --runs 1 \
    --warmup 1s --window 3s --connections 6 --out scaling-large-table-$round > scaling-large-table-$round.log 2>&1
  locked java -Xss256k -cp $jar dev.slotpool.bench.scaling.ThreadScaling --mode held --platform --pools slotpool,hikari \
    --threads 1000 --runs 1 --connections 6 --out held-$round > held-$round.log 2>&1
  locked $J25 -cp $jar dev.slotpool.bench.scaling.PerRequest --in-flight 200 --runs 3 --warmup 1s --window 2s \
    --out per-request-$round > per-request-$round.log 2>&1
  locked java -cp $jar dev.slotpool.bench.scaling.ThreadScaling --mode scaling --platform --pools slotpool,hikari \
    --threads 10,100 --runs 3 --warmup 1s --window 2s --connections 6 --out scaling-$round > scaling-$round.log 2>&1
  locked java -jar $jar "ConnectionCycleBenchmark" -p pool=slotpool,hikari -f 1 -wi 2 -w 1s -i 3 -r 1s -prof gc \
    -rf json -rff jmh-$round.json > jmh-$round.log 2>&1
  locked java -jar $jar "StatementCycleBenchmark" -p pool=slotpool,hikari -p statementCacheSize=0 -f 2 -wi 2 -w 1s \
    -i 3 -r 2s -prof gc -rf json -rff jmh-statement-off-$round.json > jmh-statement-off-$round.log 2>&1
  locked java -jar $jar "StatementCycleBenchmark" -p pool=slotpool -p statementCacheSize=16 -f 2 -wi 2 -w 1s \
    -i 3 -r 2s -prof gc -rf json -rff jmh-statement-on-$round.json > jmh-statement-on-$round.log 2>&1
  locked java -cp $jar dev.slotpool.bench.pg.PostgresTransactions --pools slotpool,hikari --threads 10,100,1000 \
    --connections 5,10 --runs 2 --warmup 2s --window 5s --out pg-$round > pg-$round.log 2>&1
  uptime >> load-$round.txt
done
