//go:build !js

package main

import (
	"testing"

	"github.com/tabletopdb/tabletop/scripts/initmaps"
)

// TestStartup_NoPackageMaps: no package of this module that the browser program links
// declares a package-level map with a value (see scripts/initmaps): Go would build it at
// every start, before the page's first call, and in a tab without the compiled module V8
// would compile that code on the way.
func TestStartup_NoPackageMaps(t *testing.T) {
	found, err := initmaps.Program(".")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range found {
		t.Errorf("%s: a package-level map built at every start of the browser program", f)
	}
}
