# Tabletop's front door. `make run` serves; `make test` runs every test natively, under
# js/wasm with Node, and the JS suites; `make bench` prints the benchmarks.

GO       ?= go
WASMEXEC := $(shell $(GO) env GOROOT)/lib/wasm/go_js_wasm_exec
GOJS     := GOOS=js GOARCH=wasm
FUZZTIME ?= 10s
BENCHTIME ?= 1s

.PHONY: run test test-go test-race test-wasm test-fuzz test-js bench vet deps

run:
	$(GO) run ./worker

test: deps vet test-go test-race test-wasm test-fuzz test-js

deps:
	$(GO) mod download

vet:
	$(GO) vet ./...
	@test -z "$$(gofmt -l .)" || { gofmt -l .; echo "gofmt needed"; exit 1; }

test-go:
	$(GO) test ./...

test-race:
	$(GO) test -race ./core/... ./worker/...

test-wasm:
	$(GOJS) $(GO) test -exec="$(WASMEXEC)" ./core/... ./worker/rest/ ./worker/auth/ ./worker/service/ ./worker/batch/

test-js:
	cd worker && npm ci --no-audit --no-fund && npm test

test-fuzz:
	@scripts/fuzz-all.sh $(FUZZTIME)

bench:
	scripts/bench-side-by-side.sh ./core/ $(BENCHTIME)
	scripts/bench-side-by-side.sh ./core/query/ $(BENCHTIME)
	$(GO) test -run '^$$' -bench Loopback -benchtime 2s ./worker/rest/
