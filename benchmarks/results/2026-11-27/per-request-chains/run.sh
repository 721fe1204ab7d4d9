#!/bin/bash
# Thread per request on Temurin 25: the chain harness (each request's virtual thread starts its chain's next one)
# and the dispatch harness (a platform dispatcher thread starts it), alternated, N rounds, every invocation under
# the shared benchmark lock. Usage: J25=<Temurin 25 java> JAR=<benchmarks.jar> LOCK=<lock file> ./run.sh N
set -euo pipefail
cd "$(dirname "$0")"
N=${1:-3}
for i in $(seq 1 "$N"); do
  for arrivals in chain dispatch; do
    uptime > "load-$arrivals-$i.txt"
    flock "$LOCK" "$J25" -cp "$JAR" dev.slotpool.bench.scaling.PerRequest --in-flight 200 --runs 3 \
        --warmup 1s --window 2s --arrivals "$arrivals" --out "$arrivals-$i" > /dev/null 2> "$arrivals-$i.log"
    uptime >> "load-$arrivals-$i.txt"
  done
done
