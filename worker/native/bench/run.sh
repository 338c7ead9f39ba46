#!/usr/bin/env bash
# The side-by-side benchmark: Azurite (pinned in package.json beside this script,
# installed with npm ci from its lock file), Tabletop's native server (in memory), the
# same REST handler served by net/http instead of the native server's own HTTP/1.1 layer,
# and a trivial net/http handler (the floor), each started here on a free loopback port, driven
# one after the other by the same load generator (loadgen beside this script), then
# stopped. Prints a table of rates and ratios. Usage: worker/native/bench/run.sh [loadgen flags, e.g. -phase 5s -clients 8]
# BENCH_PROFILE=DIR profiles Tabletop's server: DIR/cpu.pprof, DIR/allocs.pprof, and where
# goroutines waited, DIR/mutex.pprof and DIR/block.pprof (go tool pprof), e.g. of the inserts
# alone: BENCH_PROFILE=/tmp/p worker/native/bench/run.sh -workloads inserts
# Where /proc is, it also prints the CPU time each server spent over the load (user and
# system). With -workloads inserts, Tabletop and the floor serve the same requests, so
# their ratio is the ratio of CPU per request, which the load of a shared machine distorts
# less than the rates (the read workloads run for a time, not a count).
set -euo pipefail
cd "$(dirname "$0")/../../.."
work=$(mktemp -d)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

(cd worker/native/bench && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
go build -o "$work/tabletop" ./worker/tabletop
go build -o "$work/loadgen" ./worker/native/bench/loadgen

free_port() { node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"; }

# first_line FILE: waits (up to 60 s) for FILE's first line and prints it.
first_line() {
  for _ in $(seq 600); do
    if [ -s "$1" ]; then head -n 1 "$1"; return; fi
    sleep 0.1
  done
  echo "timed out waiting for $1" >&2; return 1
}

port=$(free_port)
azurite_table=$PWD/worker/native/bench/node_modules/.bin/azurite-table
(cd "$work" && exec "$azurite_table" --inMemoryPersistence --disableTelemetry --silent --skipApiVersionCheck \
  --tableHost 127.0.0.1 --tablePort "$port") >"$work/azurite.log" 2>&1 &
pids+=($!)
for i in $(seq 601); do
  (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
  if [ "$i" = 601 ] || ! kill -0 "${pids[0]}" 2>/dev/null; then
    echo "Azurite did not start:" >&2; cat "$work/azurite.log" >&2; exit 1
  fi
  sleep 0.1
done
azurite="http://127.0.0.1:$port/devstoreaccount1"

profile=()
if [ -n "${BENCH_PROFILE:-}" ]; then
  mkdir -p "$BENCH_PROFILE"
  profile=(env TABLETOP_CPUPROFILE="$BENCH_PROFILE/cpu.pprof" TABLETOP_MEMPROFILE="$BENCH_PROFILE/allocs.pprof"
    TABLETOP_MUTEXPROFILE="$BENCH_PROFILE/mutex.pprof" TABLETOP_BLOCKPROFILE="$BENCH_PROFILE/block.pprof")
fi
"${profile[@]}" "$work/tabletop" -addr 127.0.0.1:0 -data :memory: -web "" -quiet >"$work/tabletop.log" 2>&1 &
pids+=($!)
tabletop="$(first_line "$work/tabletop.log" | sed 's/.*listening on //')/devstoreaccount1"

"$work/loadgen" -serve 127.0.0.1:0 >"$work/floor.log" 2>&1 &
pids+=($!)
floor=$(first_line "$work/floor.log")

# The same REST handler through net/http's server: what the native server's own HTTP/1.1
# layer (worker/native/http1) is measured against.
"$work/loadgen" -serve-stdlib 127.0.0.1:0 >"$work/stdlib.log" 2>&1 &
pids+=($!)
stdlib=$(first_line "$work/stdlib.log")

# cpu PID: the CPU seconds (user and system) process PID has used; empty without /proc.
tck=$(getconf CLK_TCK 2>/dev/null || echo 100)
cpu() { awk -v tck="$tck" '{ sub(/^.*\) /, ""); printf "%.2f", ($12 + $13) / tck }' "/proc/$1/stat" 2>/dev/null || true; }
before=("$(cpu "${pids[0]}")" "$(cpu "${pids[1]}")" "$(cpu "${pids[2]}")" "$(cpu "${pids[3]}")")
"$work/loadgen" -azurite "$azurite" -tabletop "$tabletop" -stdlib "$stdlib" -floor "$floor" "$@"
if [ -n "${before[1]}" ]; then
  used() { awk -v a="$(cpu "$1")" -v b="$2" 'BEGIN { printf "%.2f", a - b }'; }
  printf '\nserver CPU over the load (user+system): Azurite %s s, Tabletop %s s, net/http floor %s s, Tabletop on net/http %s s\n' \
    "$(used "${pids[0]}" "${before[0]}")" "$(used "${pids[1]}" "${before[1]}")" "$(used "${pids[2]}" "${before[2]}")" "$(used "${pids[3]}" "${before[3]}")"
fi
