#!/usr/bin/env bash
# Alternates builds over one of round seven's cells, each timed run under the benchmark lock ($LOCK, if set).
#   large: 1,000 and 10,000 platform threads on 6 stub connections (slotpool alone), 1 s warm-up, 3 s window
#   pg:    PostgreSQL, pgbench-like, 100 and 1,000 threads on 5 and 10 connections, slotpool and HikariCP, 2 runs
#   pg10:  the same at 10 threads on 5 connections (round eleven's first-run check)
# The connection cycle's bound (onecas-bound/) used ../../2026-11-26/round4/tools/run.sh with THREADS=10,100.
# Usage: [LOCK=file] run.sh large|pg|pg10 ROUNDS NAME=JAR [NAME=JAR ...]   (run from the experiment's directory;
#        each jar: mvn -o -q -B -ntp -Pbench -pl benchmarks -am package -DskipTests with that directory's patch)
cell=$1; rounds=$2; shift 2
locked() { if [ -n "$LOCK" ]; then flock "$LOCK" "$@"; else "$@"; fi; }
for round in $(seq 1 $rounds); do
  for pair in "$@"; do
    name=${pair%%=*}; jar=${pair#*=}
    case $cell in
      large) locked java -Xss256k -cp $jar dev.slotpool.bench.scaling.ThreadScaling --mode scaling --platform \
               --pools slotpool --threads 1000,10000 --runs 1 --warmup 1s --window 3s --connections 6 \
               --out large-$name-$round > large-$name-$round.log 2>&1 ;;
      pg)    locked java -cp $jar dev.slotpool.bench.pg.PostgresTransactions --pools slotpool,hikari --threads 100,1000 \
               --connections 5,10 --runs 2 --warmup 2s --window 5s --out pg-$name-$round > pg-$name-$round.log 2>&1 ;;
      pg10)  locked java -cp $jar dev.slotpool.bench.pg.PostgresTransactions --pools slotpool,hikari --threads 10 \
               --connections 5 --runs 2 --warmup 2s --window 5s --out pg10-$name-$round > pg10-$name-$round.log 2>&1 ;;
      *)     echo "cell: large, pg or pg10" >&2; exit 2 ;;
    esac
  done
done
