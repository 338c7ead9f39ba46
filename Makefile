# Tabletop's front door. `make run` serves; `make test` runs every test natively, under
# js/wasm with Node, and the JS suites; `make bench` prints the benchmarks.

GO       ?= go
WASMEXEC := $(shell $(GO) env GOROOT)/lib/wasm/go_js_wasm_exec
GOJS     := GOOS=js GOARCH=wasm
FUZZTIME ?= 5s
BENCHTIME ?= 1s

.PHONY: run web worker dev test-edge test-transfer bench-web bench-sync test test-go test-race test-wasm test-fuzz test-js test-web test-browser bench vet deps

# make run ADDR=0.0.0.0:10002 DATA=/var/lib/tabletop  (DATA=:memory: keeps nothing)
ADDR ?= 127.0.0.1:10002
DATA ?= data
run: web
	$(GO) run ./worker/tabletop -addr "$(ADDR)" -data "$(DATA)"

# The edge build: worker/edge for js/wasm plus the Durable Object glue, in build/ (git-ignored).
EDGE := worker/edge

worker:
	$(EDGE)/build.sh

# The edge worker in local workerd, offline, on 127.0.0.1:8787.
dev: worker
	node $(EDGE)/dev.mjs

# The browser build: the engine as wasm plus Go's JS glue, for web/ (git-ignored), and
# dist/tabletop.js, the module in one file (esbuild, from Debian), as a page should load it:
# the source's 23 modules cost a request round trip per level of imports. It carries the
# start of the wasm's SHA-256, the build it keeps in Cache Storage (web/src/wasmcache.js). The wasm goes
# through binaryen's wasm-opt -O3 (from Debian: 6% less code than Go wrote, 0.18 MB, where
# -O2 took 0.6%; the engine's calls cost the same CPU time, `node bench/cpu.js`) and
# scripts/packdata -column (Go's findfunctab written by a start function: 0.87 MB less raw;
# then its ~5,000 data segments as a few, the same memory), run again only when Go's output
# (dist/go.wasm) or the recipe changed (dist/tabletop.wasm.recipe).
WASMOPT := wasm-opt -O3 --enable-bulk-memory --enable-sign-ext --enable-nontrapping-float-to-int --enable-mutable-globals
PACKDATA := packdata -column

web:
	mkdir -p web/dist
	cp "$$($(GO) env GOROOT)/lib/wasm/wasm_exec.js" web/dist/
	$(GOJS) $(GO) build -trimpath -ldflags="-s -w" -o web/dist/go.wasm ./wasm
	command -v wasm-opt >/dev/null || (apt-get update && apt-get install -y binaryen)
	printf '%s\n' "$$(sha256sum web/dist/go.wasm | cut -c1-64)" "$(WASMOPT)" "$(PACKDATA)" >web/dist/recipe.new
	cmp -s web/dist/recipe.new web/dist/tabletop.wasm.recipe && [ -f web/dist/tabletop.wasm ] || \
		{ $(WASMOPT) web/dist/go.wasm -o web/dist/tabletop.wasm && $(GO) run ./scripts/$(PACKDATA) web/dist/tabletop.wasm && \
		  cp web/dist/recipe.new web/dist/tabletop.wasm.recipe; }
	command -v esbuild >/dev/null || (apt-get update && apt-get install -y esbuild)
	cp web/tabletop.d.ts web/dist/tabletop.d.ts
	esbuild web/src/bundle.js --bundle --format=esm --minify --keep-names --sourcemap --external:node:* --log-level=warning \
		--define:TABLETOP_WASM_SHA256=\"$$(sha256sum web/dist/tabletop.wasm | cut -c1-16)\" --define:TABLETOP_WASM_PATH=\"./tabletop.wasm\" --outfile=web/dist/tabletop.js

test: deps vet test-go test-race test-wasm test-fuzz test-js test-web test-browser test-edge test-transfer

deps:
	$(GO) mod download

vet:
	$(GO) vet ./...
	$(GOJS) $(GO) vet ./wasm/... ./worker/...
	@test -z "$$(gofmt -l .)" || { gofmt -l .; echo "gofmt needed"; exit 1; }

test-go:
	$(GO) test ./...

test-race:
	$(GO) test -race ./core/... ./worker/...

test-wasm:
	$(GOJS) $(GO) test -exec="$(WASMEXEC)" ./core/... ./wasm/... ./worker/rest/... ./worker/edge/...

test-js:
	cd worker/sdktest && npm ci --no-audit --no-fund && npm test

test-web: web
	cd web && npm ci --no-audit --no-fund && npx tsc -p test/types && node --test test/*.test.js

test-browser: test-web worker
	command -v chromium >/dev/null || (apt-get update && apt-get install -y chromium)
	cd web && TABLETOP_SYNC_EDGE=1 node --test browser/*.test.js

test-edge: worker web
	cd web && { [ -d node_modules ] || npm ci --no-audit --no-fund; }
	cd $(EDGE) && node --test test/*.test.mjs
	cd worker/sdktest && npm ci --no-audit --no-fund
	node $(EDGE)/test-sdk.mjs
	TABLETOP_SPLIT_ENTITIES=2 node $(EDGE)/test-sdk.mjs

# tabletop copy end to end: every EDM type through native, a dump, a real Azurite (npm,
# pinned in the lock file), the edge worker in local workerd and back; Azurite's file read.
TRANSFER_E2E := worker/native/transfer/e2e

test-transfer: worker
	cd $(TRANSFER_E2E) && npm ci --no-audit --no-fund && TABLETOP_E2E_EDGE=1 node --test *.test.mjs

test-fuzz:
	scripts/fuzz-all.sh $(FUZZTIME)

bench: worker
	scripts/bench-side-by-side.sh ./core/ $(BENCHTIME)
	scripts/bench-side-by-side.sh ./core/query/ $(BENCHTIME)
	$(GO) test -run '^$$' -bench GroupCommit ./core/backend/file/
	$(GO) test -run '^$$' -bench 'Loopback|Sync' -benchtime 2s ./worker/rest/
	$(GO) test -run '^$$' -bench Copy -benchtime 1x ./worker/native/transfer/
	worker/native/bench/run.sh
	node $(EDGE)/bench.mjs
	node $(EDGE)/bench-split.mjs --rows 100000
	$(MAKE) bench-web
	$(MAKE) bench-sync

# TableSync throughput, 10,000 entities pushed and pulled over loopback (native server),
# and live sync's latency: a write on one device to a liveQuery on another, natively and
# at the edge (local workerd), on held requests and on the edge's sockets (Node's
# WebSocket: a flag on Node 20).
bench-sync: web worker
	cd web && npm ci --no-audit --no-fund && node bench/sync.js && \
		node $$(node -e 'typeof WebSocket === "function" || console.log("--experimental-websocket")') bench/sync-live.js

# The browser benchmark: Tabletop, sql.js, LokiJS, Dexie and (Chromium only) SQLite on
# OPFS in Node and in Chromium, one table; then the playground's first paint and first
# usable grid (AGAINST=dir/web: beside another checkout's, built with make web), the long
# tasks of a first full read and of a sync pull, and a large store's fill, first full read
# and renderer memory in one and three tabs, Tabletop beside Dexie and SQLite on OPFS
# (MEMORY_N entities, default 1,000,000).
bench-web: web
	cd web && npm ci --no-audit --no-fund
	command -v chromium >/dev/null || (apt-get update && apt-get install -y chromium)
	cd web && node bench/run.js
	cd web && node bench/playground.js $(if $(AGAINST),--against $(AGAINST))
	cd web && node bench/longtasks.js
	cd web && node bench/memory.js $(if $(MEMORY_N),--n=$(MEMORY_N))
