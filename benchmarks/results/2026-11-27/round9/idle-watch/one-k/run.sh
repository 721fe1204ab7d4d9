#!/usr/bin/env bash
# The 1,000-thread cell alone (slotpool, stub, 6 connections, 1 s + 3 s), one run per JVM, the build before (head)
# and the idle watch (watch) alternated, six rounds, each run under the benchmark lock ($LOCK, if set).
# Usage: [LOCK=file] run.sh BEFORE_JAR WATCH_JAR; then: for f in k-*/platform-runs.csv; do ...; done (summary.txt)
before=$1; after=$2
locked() { if [ -n "$LOCK" ]; then flock "$LOCK" "$@"; else "$@"; fi; }
for r in 1 2 3 4 5 6; do
  for v in head watch; do
    jar=$before; [ "$v" = watch ] && jar=$after
    locked java -Xss256k -cp "$jar" dev.slotpool.bench.scaling.ThreadScaling --mode scaling --platform \
        --pools slotpool --threads 1000 --runs 1 --warmup 1s --window 3s --connections 6 --out "k-$v-$r" \
        > "k-$v-$r.log" 2>&1
  done
done
