//go:build !js

package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/tabletopdb/tabletop/worker/rest"
)

// TestBodyLimit: the entry Worker refuses a body over src/body.mjs's MAX_BODY_BYTES before
// it holds it whole, so that must be the largest body the Go handler reads: a smaller one
// would refuse bodies the handler takes, a larger one buffer bodies it refuses.
func TestBodyLimit(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("src", "body.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^export const MAX_BODY_BYTES = (\d+) << (\d+);$`).FindSubmatch(src)
	if m == nil {
		t.Fatal("src/body.mjs declares no MAX_BODY_BYTES = n << shift")
	}
	n, _ := strconv.Atoi(string(m[1]))
	shift, _ := strconv.Atoi(string(m[2]))
	if got := n << shift; got != rest.MaxBodyBytes {
		t.Fatalf("MAX_BODY_BYTES is %d, rest.MaxBodyBytes %d", got, rest.MaxBodyBytes)
	}
}
