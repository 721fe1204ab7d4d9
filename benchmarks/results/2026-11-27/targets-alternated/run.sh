#!/usr/bin/env bash
# Alternates two builds over issue 28's large-count targets: 1,000 and 10,000 platform threads (slotpool),
# 1,000 threads holding each connection 1 ms (slotpool, HikariCP), thread per request on virtual threads.
# Usage: J25=<Temurin 25 java> run.sh ROUNDS NAME=JAR [NAME=JAR ...]   (run from this directory)
rounds=$1; shift
for round in $(seq 1 $rounds); do
  for pair in "$@"; do
    name=${pair%%=*}; jar=${pair#*=}
    java -Xss256k -cp $jar dev.slotpool.bench.scaling.ThreadScaling --mode scaling --platform --pools slotpool \
      --threads 1000,10000 --runs 1 --warmup 1s --window 3s --connections 6 --out scaling-$name-$round > scaling-$name-$round.log 2>&1
    java -Xss256k -cp $jar dev.slotpool.bench.scaling.ThreadScaling --mode held --platform --pools slotpool,hikari \
      --threads 1000 --runs 1 --connections 6 --out held-$name-$round > held-$name-$round.log 2>&1
    $J25 -cp $jar dev.slotpool.bench.scaling.PerRequest --in-flight 200 --runs 1 --warmup 1s --window 2s \
      --out per-request-$name-$round > per-request-$name-$round.log 2>&1
  done
done
echo done > ../targets-alternated.done
