# Tabletop's front door. `make run` serves; `make test` runs every test natively, under
# js/wasm with Node, and the JS suites; `make bench` prints the benchmarks.

GO       ?= go
WASMEXEC := $(shell $(GO) env GOROOT)/lib/wasm/go_js_wasm_exec
GOJS     := GOOS=js GOARCH=wasm
FUZZTIME ?= 10s
BENCHTIME ?= 1s

.PHONY: run test test-go test-race test-wasm test-fuzz bench vet deps

run:
	$(GO) run ./worker

test: deps vet test-go test-race test-wasm test-fuzz

deps:
	$(GO) mod download

vet:
	$(GO) vet ./...
	@test -z "$$(gofmt -l .)" || { gofmt -l .; echo "gofmt needed"; exit 1; }

test-go:
	$(GO) test ./...

test-race:
	$(GO) test -race ./core/...

test-wasm:
	$(GOJS) $(GO) test -exec="$(WASMEXEC)" ./core/...

test-fuzz:
	@scripts/fuzz-all.sh $(FUZZTIME)

bench:
	scripts/bench-side-by-side.sh ./core/ $(BENCHTIME)
	scripts/bench-side-by-side.sh ./core/query/ $(BENCHTIME)
