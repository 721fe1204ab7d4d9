#!/usr/bin/env bash
# Alternates builds: JMH connection cycle (3 shapes) and the scaling harness (10 threads unless THREADS says), slotpool and HikariCP in each run.
# Usage: [FORKS=n] [RUNS=n] [THREADS=10,100] [SKIP_JMH=1] run.sh OUTDIR ROUNDS NAME=JAR [NAME=JAR ...]   (each jar: mvn -o -q -B -ntp -Pbench -pl benchmarks -am package -DskipTests at its commit)
out=$1; rounds=$2; shift 2
mkdir -p $out; cd $out
for round in $(seq 1 $rounds); do
  for pair in "$@"; do
    name=${pair%%=*}; jar=${pair#*=}
    uptime > load-$name-$round.txt
    [ -n "$SKIP_JMH" ] || java -jar $jar "ConnectionCycleBenchmark" -p pool=slotpool,hikari -f ${FORKS:-1} -wi 2 -w 1s -i 3 -r 1s -prof gc \
      -rf json -rff jmh-$name-$round.json > jmh-$name-$round.log 2>&1
    java -cp $jar dev.slotpool.bench.scaling.ThreadScaling --mode scaling --platform --pools slotpool,hikari \
      --threads ${THREADS:-10} --runs ${RUNS:-3} --warmup 1s --window 2s --connections 6 --out scaling-$name-$round \
      > scaling-$name-$round.log 2>&1
    uptime >> load-$name-$round.txt
  done
done
echo done > DONE
