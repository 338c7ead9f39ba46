//go:build !js

package main

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestDependencies: each of the three programs links only what its host needs. The edge
// program links no native file backend, the browser build neither net/http nor the file
// backend, and the native server no syscall/js.
func TestDependencies(t *testing.T) {
	const module = "github.com/tabletopdb/tabletop/"
	for _, tc := range []struct {
		pkg     string
		js      bool
		without []string
	}{
		{"./worker/edge", true, []string{module + "core/backend/file"}},
		{"./wasm", true, []string{module + "core/backend/file", "net/http"}},
		{"./worker/native", false, []string{"syscall/js"}},
	} {
		t.Run(tc.pkg, func(t *testing.T) {
			deps := goListDeps(t, tc.pkg, tc.js)
			for _, dep := range tc.without {
				if slices.Contains(deps, dep) {
					t.Errorf("%s links %s", tc.pkg, dep)
				}
			}
		})
	}
}

// goListDeps lists the packages pkg (relative to the module root) links, for js/wasm if js.
func goListDeps(t *testing.T, pkg string, js bool) []string {
	t.Helper()
	cmd := exec.Command("go", "list", "-deps", pkg)
	cmd.Dir = "../.."
	if js {
		cmd.Env = append(cmd.Environ(), "GOOS=js", "GOARCH=wasm")
	}
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -deps %s: %v", pkg, err)
	}
	return strings.Fields(string(out))
}
