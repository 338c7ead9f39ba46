//go:build !js

package native

import (
	"encoding/json"
	"os"
	"regexp"
	"testing"
)

// TestVersion_agrees: the command's Version, the browser module's (package.json and
// src/version.js) and CHANGELOG.md's latest heading are the same.
func TestVersion_agrees(t *testing.T) {
	read := func(path string) []byte {
		t.Helper()
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	var pkg struct{ Version string }
	if err := json.Unmarshal(read("../../web/package.json"), &pkg); err != nil {
		t.Fatal(err)
	}
	js := regexp.MustCompile(`export const version = "([^"]+)"`).FindSubmatch(read("../../web/src/version.js"))
	log := regexp.MustCompile(`(?m)^## (\S+)`).FindSubmatch(read("../../CHANGELOG.md"))
	if js == nil || log == nil || pkg.Version != Version || string(js[1]) != Version || string(log[1]) != Version {
		t.Fatalf("versions: command %s, package.json %s, src/version.js %q, CHANGELOG.md %q", Version, pkg.Version, js, log)
	}
}
