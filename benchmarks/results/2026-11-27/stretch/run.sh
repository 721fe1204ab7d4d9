#!/usr/bin/env bash
# Alternates two builds over the PostgreSQL transactions where a turn is stretched (short queues) and one where it
# is not (100 threads): 5 and 10 connections, 10, 20 and 100 threads, slotpool and HikariCP in each run.
# Usage: run.sh ROUNDS NAME=JAR [NAME=JAR ...]   (run from this directory; each jar: the -Pbench package)
rounds=$1; shift
for round in $(seq 1 $rounds); do
  for pair in "$@"; do
    name=${pair%%=*}; jar=${pair#*=}
    uptime > load-$name-$round.txt
    java -cp $jar dev.slotpool.bench.pg.PostgresTransactions --pools slotpool,hikari --threads 10,20,100 \
      --connections 5,10 --runs 2 --warmup 2s --window 5s --out pg-$name-$round > pg-$name-$round.log 2>&1
    uptime >> load-$name-$round.txt
  done
done
echo done > DONE
