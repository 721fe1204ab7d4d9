#!/usr/bin/env bash
# System-wide context switches, wake-ups and inter-processor interrupts per transaction, slotpool beside HikariCP:
# one PostgresTransactions cell per invocation, one run of each pool with a 15 s window, under `perf stat -a -I
# 1000` (one line per second); each progress line of the harness is stamped with the time it was printed, so
# summ.py can take each pool's window from the seconds before its line. Under the benchmark lock ($LOCK, if set).
# Usage: [LOCK=file] run.sh JAR ROUND CONNECTIONS THREADS     e.g. run.sh benchmarks.jar 1 5 100
jar=$1; r=$2; c=$3; t=$4
out="c$c-t$t-$r"
locked() { if [ -n "$LOCK" ]; then flock "$LOCK" "$@"; else "$@"; fi; }
locked bash -c '
  date +%s.%N > "'"$out"'.start"
  perf stat -a -I 1000 -x, -e context-switches,sched:sched_wakeup,irq_vectors:reschedule_entry,irq_vectors:call_function_single_entry \
      -o "'"$out"'.perf" -- java -cp "'"$jar"'" dev.slotpool.bench.pg.PostgresTransactions --pools slotpool,hikari \
      --threads '"$t"' --connections '"$c"' --runs 1 --warmup 2s --window 15s --out "'"$out"'" 2>&1 \
    | while IFS= read -r line; do printf "%s %s\n" "$(date +%s.%N)" "$line"; done > "'"$out"'.log"'
