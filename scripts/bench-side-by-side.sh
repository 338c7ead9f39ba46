#!/usr/bin/env bash
# Runs a package's Go benchmarks natively and under js/wasm (Node) in one go and prints
# each custom rate (the last metric of a line, such as inserts/s) side by side with the
# wasm÷native slowdown. Usage: scripts/bench-side-by-side.sh PKG [BENCHTIME [PATTERN]],
# PATTERN choosing the benchmarks as go test -bench does (all by default).
set -euo pipefail
export LC_ALL=C
pkg=$1
benchtime=${2:-1s}
pattern=${3:-.}
exec_wasm="$(go env GOROOT)/lib/wasm/go_js_wasm_exec"
native=$(mktemp) wasm=$(mktemp)
trap 'rm -f "$native" "$wasm"' EXIT
go test -run '^$' -bench "$pattern" -benchtime "$benchtime" "$pkg" | tee "$native" >&2
GOOS=js GOARCH=wasm go test -exec="$exec_wasm" -run '^$' -bench "$pattern" -benchtime "$benchtime" "$pkg" | tee "$wasm" >&2
# rate FILE: "name rate unit" for every benchmark line with a custom metric.
rate() { awk '/^Benchmark/ { name=$1; sub(/-[0-9]+$/, "", name); print name, $(NF-1), $NF }' "$1"; }
echo
printf '%-40s %14s %14s  %-12s %s\n' "benchmark ($pkg)" native js/wasm unit slowdown
join <(rate "$native" | sort) <(rate "$wasm" | sort) |
  awk 'function slowdown(n, w, unit) { if (n <= 0 || w <= 0) return 0; return unit ~ /\/op$/ ? w/n : n/w }
       { printf "%-40s %14.0f %14.0f  %-12s %.1fx\n", $1, $2, $4, $3, slowdown($2, $4, $3) }'
