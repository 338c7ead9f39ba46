#!/bin/sh
# Builds the edge bundle: the Go wasm of ./worker/edge (finished by finish.sh: wasm-opt
# -Oz and packed data segments; run again only when Go's output, build/go.wasm, changed:
# wasm-opt takes about a minute), wasm_exec.js from the Go that built it, and the bundle a
# deployment uploads (wrangler deploy --dry-run: nothing leaves the machine). Output in
# worker/edge/build/ (git-ignored).
set -eu
edge=$(cd "$(dirname "$0")" && pwd)
cd "$edge"
rm -rf build/dist && mkdir -p build
GOOS=js GOARCH=wasm go build -trimpath -ldflags="-s -w" -o build/go.wasm .
if ! { cmp -s build/go.wasm build/go.wasm.finished 2>/dev/null && [ -f build/app.wasm ]; }; then
  rm -f build/go.wasm.finished
  cp build/go.wasm build/app.wasm
  ./finish.sh "$edge/build/app.wasm"
  cp build/go.wasm build/go.wasm.finished
fi
cp "$(go env GOROOT)/lib/wasm/wasm_exec.js" build/wasm_exec.js
[ -x node_modules/.bin/wrangler ] || npm ci --no-audit --no-fund --silent
WRANGLER_SEND_METRICS=false CLOUDFLARE_CF_FETCH_ENABLED=false \
  node_modules/.bin/wrangler deploy --dry-run --outdir "$edge/build/dist" -c ../../wrangler.toml >build/wrangler-build.log 2>&1 ||
  { cat build/wrangler-build.log; exit 1; }
ls -l build/dist
