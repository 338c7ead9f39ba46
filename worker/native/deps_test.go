//go:build !js

package native

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestDependencies: each of the three programs links only what its host needs. The edge
// program links no native file backend and, since it never listens on a socket, neither
// net/http nor the crypto/tls and crypto/x509 that net/http brings (worker/rest works on
// worker/rest/exchange; only the native server adapts net/http to it), nor encoding/xml,
// mime, mime/multipart, net/textproto or net (worker/rest/xmldoc, exchange.ParseMediaType,
// the batch reader and auth's net/netip do that work, with much less wasm), nor
// crypto/hmac, crypto/sha256 or the crypto/cipher they bring (Go's FIPS 140 module, a
// large share of the wasm for one MAC: auth's hmacsha256 computes Shared Key's MAC
// there), nor net/url, net/netip and the unique package net/netip brings (worker/rest/uri
// reads targets, queries and addresses there, in less wasm); the browser build links
// neither net/http nor the file backend, and the native server no syscall/js. Neither the
// edge nor the browser build links goccy/go-json (it would make the browser build much
// larger), which only the native program's data-moving commands use; the native program
// does link it, so the check cannot pass by looking for a wrong name.
func TestDependencies(t *testing.T) {
	const module = "github.com/tabletopdb/tabletop/"
	const goJSON = "github.com/goccy/go-json"
	for _, tc := range []struct {
		pkg     string
		js      bool
		without []string
		with    []string
	}{
		{"./worker/edge", true, []string{module + "core/backend/file", "net/http", "crypto/tls", "crypto/x509", "encoding/xml", "mime", "mime/multipart", "net/textproto", "net", module + "worker/rest/nethttp", goJSON, goJSON + "/jsontext", "crypto/hmac", "crypto/sha256", "crypto/cipher", "net/url", "net/netip", "unique"}, []string{module + "worker/rest", module + "worker/rest/auth/hmacsha256", module + "worker/rest/uri"}},
		{"./wasm", true, []string{module + "core/backend/file", "net/http", goJSON, goJSON + "/jsontext"}, nil},
		{"./worker/tabletop", false, []string{"syscall/js"}, []string{goJSON + "/jsontext", "net/http", module + "worker/rest/nethttp"}},
	} {
		t.Run(tc.pkg, func(t *testing.T) {
			deps := goListDeps(t, tc.pkg, tc.js)
			for _, dep := range tc.without {
				if slices.Contains(deps, dep) {
					t.Errorf("%s links %s", tc.pkg, dep)
				}
			}
			for _, dep := range tc.with {
				if !slices.Contains(deps, dep) {
					t.Errorf("%s does not link %s", tc.pkg, dep)
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
