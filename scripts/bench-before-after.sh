#!/usr/bin/env bash
# Runs one Go benchmark of a package as built at an earlier revision and as the work tree
# has it, in turn, ROUNDS times each, so that the load of a shared machine falls on both
# alike; prints each run's benchmark line with the process's CPU seconds (user+system),
# which load distorts less than ns/op. Usage:
#   scripts/bench-before-after.sh REV PKG BENCH [BENCHTIME] [ROUNDS]
# e.g. scripts/bench-before-after.sh main ./worker/rest '^BenchmarkHandler_Insert$' 100000x 3
set -euo pipefail
export LC_ALL=C
rev=$1 pkg=$2 bench=$3 benchtime=${4:-1s} rounds=${5:-3}
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/before"
git archive "$rev" | tar -x -C "$work/before"
(cd "$work/before" && go test -c -o "$work/before.test" "$pkg")
go test -c -o "$work/after.test" "$pkg"
for _ in $(seq "$rounds"); do
  for which in before after; do
    start=$(date +%s.%N)
    line=$( { /usr/bin/env time -f "%U %S" "$work/$which.test" -test.run '^$' -test.bench "$bench" \
      -test.benchtime "$benchtime" -test.benchmem 2>"$work/time" | grep '^Benchmark'; } )
    read -r user sys <"$work/time"
    printf '%-6s %s  cpu %.2f s  wall %.2f s\n' "$which" "$line" "$(echo "$user + $sys" | bc)" \
      "$(echo "$(date +%s.%N) - $start" | bc)"
  done
done
