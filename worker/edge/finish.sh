#!/bin/sh
# Finishes a Go js/wasm build in place for a fast start: binaryen's wasm-opt -Oz, then
# ../../scripts/packdata (Go's ~55,000 data segments as a few: same memory, faster to
# compile, smaller). -Oz leaves 5% less wasm to compile (7% less of what a start and its
# first requests compile) and took about 7% off the CPU time of a cold start's steps in
# bench-start.mjs; -O2 changed neither. build.sh runs it on the worker, bench-start.mjs on
# the programs it times beside it, so that all are built alike. Usage: finish.sh FILE.wasm
set -eu
command -v wasm-opt >/dev/null || { echo "finish.sh: wasm-opt not found (Debian package binaryen; make worker installs it)" >&2; exit 1; }
wasm-opt -Oz --enable-bulk-memory --enable-sign-ext --enable-nontrapping-float-to-int --enable-mutable-globals "$1" -o "$1"
cd "$(dirname "$0")" && go run ../../scripts/packdata "$1"
