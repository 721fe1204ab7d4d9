#!/usr/bin/env bash
# Alternates two builds over what the queue's first look decides: 1,000 and 10,000 platform threads (slotpool),
# 1,000 threads holding 1 ms, thread per request on virtual threads, PostgreSQL at 10 and 100 threads on 5
# connections, the stub at 100 threads and the JMH connection cycle (slotpool and HikariCP in each run).
# Usage: J25=<Temurin 25 java> run.sh ROUNDS NAME=JAR [NAME=JAR ...]   (run from this directory)
rounds=$1; shift
for round in $(seq 1 $rounds); do
  for pair in "$@"; do
    name=${pair%%=*}; jar=${pair#*=}
    uptime > load-$name-$round.txt
    java -Xss256k -cp $jar dev.slotpool.bench.scaling.ThreadScaling --mode scaling --platform --pools slotpool \
      --threads 1000,10000 --runs 1 --warmup 1s --window 3s --connections 6 --out scaling-large-$name-$round > scaling-large-$name-$round.log 2>&1
    java -Xss256k -cp $jar dev.slotpool.bench.scaling.ThreadScaling --mode held --platform --pools slotpool,hikari \
      --threads 1000 --runs 1 --connections 6 --out held-$name-$round > held-$name-$round.log 2>&1
    $J25 -cp $jar dev.slotpool.bench.scaling.PerRequest --in-flight 200 --runs 1 --warmup 1s --window 2s \
      --out per-request-$name-$round > per-request-$name-$round.log 2>&1
    java -cp $jar dev.slotpool.bench.pg.PostgresTransactions --pools slotpool,hikari --threads 10,100 \
      --connections 5 --runs 2 --warmup 2s --window 5s --out pg-$name-$round > pg-$name-$round.log 2>&1
    java -cp $jar dev.slotpool.bench.scaling.ThreadScaling --mode scaling --platform --pools slotpool,hikari \
      --threads 10,100 --runs 3 --warmup 1s --window 2s --connections 6 --out scaling-$name-$round > scaling-$name-$round.log 2>&1
    java -jar $jar "ConnectionCycleBenchmark" -p pool=slotpool,hikari -f 1 -wi 2 -w 1s -i 3 -r 1s -prof gc \
      -rf json -rff jmh-$name-$round.json > jmh-$name-$round.log 2>&1
    uptime >> load-$name-$round.txt
  done
done
echo done > DONE
