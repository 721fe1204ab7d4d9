#!/usr/bin/env bash
# The 100-thread cells alone (a fresh database each invocation, no shorter-queue cells before them), two builds
# alternated: does a stretched turn reach a queue of 90?
# Usage: run.sh ROUNDS NAME=JAR [NAME=JAR ...]   (run from this directory)
rounds=$1; shift
for round in $(seq 1 $rounds); do
  for pair in "$@"; do
    name=${pair%%=*}; jar=${pair#*=}
    uptime > load-$name-$round.txt
    java -cp $jar dev.slotpool.bench.pg.PostgresTransactions --pools slotpool,hikari --threads 100 \
      --connections 10,5 --runs 2 --warmup 2s --window 5s --out pg-$name-$round > pg-$name-$round.log 2>&1
    uptime >> load-$name-$round.txt
  done
done
echo done > DONE
