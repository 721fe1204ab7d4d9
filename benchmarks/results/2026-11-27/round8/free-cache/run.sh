#!/bin/bash
# Statement cycle, builds alternated: each round runs every build once, one JMH fork each, with slotpool's cache
# off (0) and on (16) and HikariCP in the same invocation (HikariCP with a cache size of 16 is refused by the
# benchmark and skipped).
# usage: LOCK=<lock file> ./run.sh OUT ROUNDS name=<benchmarks.jar> ...
out=$1; rounds=$2; shift 2; mkdir -p "$out"
for r in $(seq "$rounds"); do for spec in "$@"; do n=${spec%%=*}; j=${spec#*=}
 flock "${LOCK:-bench.lock}" java -jar "$j" StatementCycleBenchmark -p pool=slotpool,hikari -p statementCacheSize=0,16 \
     -f 1 -wi 3 -w 1s -i 3 -r 1s -rf json -rff "$out/$n-$r.json" > "$out/$n-$r.log" 2>&1
done; done
