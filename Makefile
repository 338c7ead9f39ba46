# Tabletop's front door. `make run` serves; `make test` runs every test natively, under
# js/wasm with Node, and the JS suites; `make bench` prints the benchmarks.

GO       ?= go
WASMEXEC := $(shell $(GO) env GOROOT)/lib/wasm/go_js_wasm_exec
GOJS     := GOOS=js GOARCH=wasm
FUZZTIME ?= 10s
BENCHTIME ?= 1s

.PHONY: run web test test-go test-race test-wasm test-fuzz test-js test-web test-browser bench vet deps

run: web
	$(GO) run ./worker

# The browser build: the engine as wasm plus Go's JS glue, for web/ (git-ignored).
web:
	mkdir -p web/dist
	cp "$$($(GO) env GOROOT)/lib/wasm/wasm_exec.js" web/dist/
	$(GOJS) $(GO) build -trimpath -ldflags="-s -w" -o web/dist/tabletop.wasm ./wasm

test: deps vet test-go test-race test-wasm test-fuzz test-js test-web test-browser

deps:
	$(GO) mod download

vet:
	$(GO) vet ./...
	$(GOJS) $(GO) vet ./wasm/... ./worker/rest/
	@test -z "$$(gofmt -l .)" || { gofmt -l .; echo "gofmt needed"; exit 1; }

test-go:
	$(GO) test ./...

test-race:
	$(GO) test -race ./core/... ./worker/...

test-wasm:
	$(GOJS) $(GO) test -exec="$(WASMEXEC)" ./core/... ./wasm/... ./worker/rest/ ./worker/auth/ ./worker/service/ ./worker/batch/

test-js:
	cd worker && npm ci --no-audit --no-fund && npm test

test-web: web
	cd web && npm ci --no-audit --no-fund && node --test test/*.test.js

test-browser: test-web
	command -v chromium >/dev/null || (apt-get update && apt-get install -y chromium)
	cd web && node --test browser/*.test.js

test-fuzz:
	@scripts/fuzz-all.sh $(FUZZTIME)

bench:
	scripts/bench-side-by-side.sh ./core/ $(BENCHTIME)
	scripts/bench-side-by-side.sh ./core/query/ $(BENCHTIME)
	$(GO) test -run '^$$' -bench Loopback -benchtime 2s ./worker/rest/
