#!/usr/bin/env bash
# Turn length alone, on PostgreSQL: 5 connections, 10 threads, slotpool's turnDuration 250 us, 1 ms, 2.5 ms, 5 ms
# (HikariCP as it ships in each run). JAR: the -Pbench package of 59a8dd1 with one line added to
# PoolKind.slotpool's builder, not committed: .turnDuration(Duration.ofNanos(Long.getLong("exp.turn", 250_000))).
# Usage: JAR=<that jar> run.sh   (run from this directory)
for round in 1 2; do
 for t in 250000 1000000 2500000 5000000; do
  uptime > load-$t-$round.txt
  java -Dexp.turn=$t -cp $JAR dev.slotpool.bench.pg.PostgresTransactions --pools slotpool,hikari \
    --threads 10 --connections 5 --runs 2 --warmup 2s --window 5s --out pg-$t-$round > pg-$t-$round.log 2>&1
 done
done
echo done > DONE
