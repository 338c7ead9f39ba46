#!/usr/bin/env bash
# Runs every Go fuzz target in the module for a bounded time each (the first argument,
# default 10s). Crashing inputs are kept under testdata/fuzz and fail the run.
set -euo pipefail
fuzztime=${1:-10s}
for pkg in $(go list ./...); do
  dir=$(go list -f '{{.Dir}}' "$pkg")
  for target in $(grep -ho '^func Fuzz[A-Za-z0-9_]*' "$dir"/*_test.go 2>/dev/null | sed 's/^func //'); do
    echo "fuzz $pkg $target ($fuzztime)"
    go test -run '^$' -fuzz "^${target}\$" -fuzztime "$fuzztime" -fuzzminimizetime 3s "$pkg"
  done
done
