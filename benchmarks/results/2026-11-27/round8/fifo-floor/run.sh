#!/usr/bin/env bash
# The FIFO floor beside the measured tail: PostgreSQL, pgbench-like, 100 and 1,000 threads on 5 and 10
# connections, slotpool and HikariCP, 2 runs per invocation, each invocation under the benchmark lock ($LOCK, if
# set). The engine as at a1dcc5b, the harness as at 38fa2ce: it records each transaction's work and simulates the
# FIFO floor. idle-1 and idle-1.log: one invocation of the same grid with idle-probe.patch applied (bench-only),
# which times on each physical connection the gap from a commit to the next borrow, and each close.
# Usage: [LOCK=file] run.sh FIRST LAST JAR     e.g. run.sh 1 3 benchmarks.jar
first=$1; last=$2; jar=$3
locked() { if [ -n "$LOCK" ]; then flock "$LOCK" "$@"; else "$@"; fi; }
for r in $(seq "$first" "$last"); do
  locked java -cp "$jar" dev.slotpool.bench.pg.PostgresTransactions --pools slotpool,hikari --threads 100,1000 \
      --connections 5,10 --runs 2 --warmup 2s --window 5s --out "pg-$r" > "pg-$r.log" 2>&1
done
