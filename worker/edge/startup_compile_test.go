//go:build !js

package main

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// moduleFuncs is how this module's functions are named in the wasm's name section.
const moduleFuncs = "github.com_tabletopdb_tabletop_"

// startBudget is the most wasm, in bytes of function bodies, of this module's own
// functions that a first start (runtime, package initialisation, an empty store opened)
// may run, and so have V8 compile lazily before the first request: set a little above
// what a start ran once the open stopped listing an empty store's log, parsing its absent
// head, looking for index declarations in it and writing when nothing expired. Raise it
// knowingly: each function a start runs for the first time is compiled, and its code's
// pages touched, in every cold start of every object.
const startBudget = 32_000

// TestStartup_OpenCompiles starts the edge program as a Durable Object's first start does
// (Node's V8, lazy wasm compilation, as on Cloudflare; an empty storage) and reads which
// functions V8 compiled (--trace-wasm-compilation-times) before the store was open. The
// open runs no write transaction and no storage listing: those are compiled when a request
// needs them. Builds the program (with its function names) and needs node.
func TestStartup_OpenCompiles(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the edge program")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node not found")
	}
	compiled := startCompiles(t, node)
	if _, ok := compiled[moduleFuncs+"core.Open"]; !ok {
		t.Fatalf("core.Open not among the %d functions compiled at start: are the names read right?", len(compiled))
	}
	for _, name := range []string{
		moduleFuncs + "core.__Store_.commit", // the write path: no write transaction at open
		moduleFuncs + "core.__Store_.Update",
		moduleFuncs + "worker_edge_dostore.__KV_.Scan", // an empty store's log is not listed,
		moduleFuncs + "core_backend_kvlog.parseHead",   // its absent head not parsed,
		moduleFuncs + "core.__Store_.restoreIndexes",   // no index declarations looked for
		moduleFuncs + "core.__Store_.ensureIndexes",    // and none configured to declare
	} {
		if _, ok := compiled[name]; ok {
			t.Errorf("a start compiles %s", name)
		}
	}
	own := 0
	for name, size := range compiled {
		if strings.HasPrefix(name, moduleFuncs) {
			own += size
		}
	}
	t.Logf("a start compiles %d functions; this module's: %d bytes of wasm", len(compiled), own)
	if own > startBudget {
		t.Errorf("a start compiles %d bytes of this module's functions, over the budget of %d", own, startBudget)
	}
}

// startCompiles builds the program, starts it once under node and returns the functions
// V8 compiled with Liftoff (its first tier: every function run) by name, with their sizes.
func startCompiles(t *testing.T, node string) map[string]int {
	t.Helper()
	dir := t.TempDir()
	wasm := filepath.Join(dir, "app.wasm")
	build := exec.Command("go", "build", "-trimpath", "-o", wasm, ".") // no -s -w: names kept
	build.Env = append(build.Environ(), "GOOS=js", "GOARCH=wasm")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatalf("go env GOROOT: %v", err)
	}
	wasmExec := filepath.Join(strings.TrimSpace(string(goroot)), "lib", "wasm", "wasm_exec.js")
	run := exec.Command(node, "--trace-wasm-compilation-times", "test/start-once.mjs", wasm, wasmExec)
	var stderr bytes.Buffer
	run.Stderr = &stderr
	trace, err := run.Output()
	if err != nil {
		t.Fatalf("start: %v\n%s", err, stderr.Bytes())
	}
	raw, err := os.ReadFile(wasm)
	if err != nil {
		t.Fatal(err)
	}
	names, err := funcNames(raw)
	if err != nil {
		t.Fatalf("read function names: %v", err)
	}
	compiled := map[string]int{}
	line := regexp.MustCompile(`#(\d+) using Liftoff, .* bodysize (\d+)`)
	for _, m := range line.FindAllSubmatch(trace, -1) {
		index, _ := strconv.Atoi(string(m[1]))
		size, _ := strconv.Atoi(string(m[2]))
		compiled[names[index]] = size
	}
	return compiled
}

// errNoNames means the wasm has no function names (built with -s -w).
var errNoNames = errors.New("no name section")

// funcNames reads the function names of a wasm module's "name" custom section, by index.
func funcNames(wasm []byte) (map[int]string, error) {
	r := bytes.NewReader(wasm[8:]) // past the magic number and version
	for r.Len() > 0 {
		id, _ := r.ReadByte()
		size, err := binary.ReadUvarint(r)
		if err != nil {
			return nil, err
		}
		section := make([]byte, size)
		if _, err := r.Read(section); err != nil {
			return nil, err
		}
		if id != 0 {
			continue
		}
		s := bytes.NewReader(section)
		if n, err := binary.ReadUvarint(s); err != nil || readString(s, int(n)) != "name" {
			continue
		}
		for s.Len() > 0 {
			sub, _ := s.ReadByte()
			size, _ := binary.ReadUvarint(s)
			if sub != 1 { // 1: function names
				s.Seek(int64(size), 1)
				continue
			}
			names := map[int]string{}
			count, _ := binary.ReadUvarint(s)
			for range count {
				index, _ := binary.ReadUvarint(s)
				n, err := binary.ReadUvarint(s)
				if err != nil {
					return nil, err
				}
				names[int(index)] = readString(s, int(n))
			}
			return names, nil
		}
	}
	return nil, errNoNames
}

// readString reads n bytes of r as a string.
func readString(r *bytes.Reader, n int) string {
	b := make([]byte, min(n, r.Len()))
	r.Read(b)
	return string(b)
}
