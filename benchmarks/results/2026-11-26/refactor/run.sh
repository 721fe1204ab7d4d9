#!/usr/bin/env bash
# The refactor before and after (docs/benchmarks.md): JMH connection cycle and the scaling harness, alternating builds, slotpool and HikariCP in each run.
# Usage: run.sh BEFORE_JAR AFTER_JAR (each built at its commit: mvn -q -Pbench -pl benchmarks -am package -DskipTests)
B=$1
A=$2
for round in 1 2; do
  for which in before after; do
    jar=$B; [ $which = after ] && jar=$A
    java -jar $jar "ConnectionCycleBenchmark" -p pool=slotpool,hikari -f 1 -wi 2 -w 1s -i 3 -r 1s -prof gc \
      -rf json -rff jmh-$which-$round.json > jmh-$which-$round.log 2>&1
    java -cp $jar dev.slotpool.bench.scaling.ThreadScaling --mode scaling --platform --pools slotpool,hikari \
      --threads 10,100,1000 --runs 3 --warmup 1s --window 2s --connections 6 --out scaling-$which-$round \
      > scaling-$which-$round.log 2>&1
  done
done
echo done > DONE
