#!/bin/sh
# Builds the edge bundle: the Go wasm of ./worker/edge (its data segments packed by
# ../../scripts/packdata), wasm_exec.js from the Go that built it,
# and the bundle a deployment uploads (wrangler deploy --dry-run: nothing leaves the
# machine). Output in worker/edge/build/ (git-ignored).
set -eu
edge=$(cd "$(dirname "$0")" && pwd)
cd "$edge"
rm -rf build/dist && mkdir -p build
GOOS=js GOARCH=wasm go build -trimpath -ldflags="-s -w" -o build/app.wasm .
go run ../../scripts/packdata build/app.wasm # Go's many data segments as a few: same memory, faster to compile, smaller
cp "$(go env GOROOT)/lib/wasm/wasm_exec.js" build/wasm_exec.js
[ -x node_modules/.bin/wrangler ] || npm ci --no-audit --no-fund --silent
WRANGLER_SEND_METRICS=false CLOUDFLARE_CF_FETCH_ENABLED=false \
  node_modules/.bin/wrangler deploy --dry-run --outdir "$edge/build/dist" -c ../../wrangler.toml >build/wrangler-build.log 2>&1 ||
  { cat build/wrangler-build.log; exit 1; }
ls -l build/dist
