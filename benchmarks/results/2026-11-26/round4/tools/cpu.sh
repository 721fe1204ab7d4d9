#!/usr/bin/env bash
# Alternates builds with CpuCycle: the worker threads' CPU ns per borrow -> close, slotpool and HikariCP in each run.
# Usage: cpu.sh OUT ROUNDS THREADS CLASSES NAME=JAR ...   (CLASSES: where CpuCycle.java was compiled against a benchmarks jar)
out=$1; rounds=$2; threads=$3; classes=$4; shift 4
for round in $(seq 1 $rounds); do
  for pair in "$@"; do
    name=${pair%%=*}; jar=${pair#*=}
    echo "# $name round $round $(uptime)" >> $out
    java -Xms1g -Xmx1g -cp $classes:$jar CpuCycle slotpool,hikari $threads 1 2 2 2>&1 | grep RESULT | sed "s/^/$name /" >> $out
  done
done
