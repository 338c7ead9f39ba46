//go:build !js

package main

import (
	"testing"

	"github.com/tabletopdb/tabletop/scripts/initmaps"
)

// TestStartup_NoPackageMaps: no package of this module that the edge program links
// declares a package-level map with a value (see scripts/initmaps): Go would build it at
// every start, before the first request can be served (an instance of the program starts
// for each Durable Object), and V8 would compile that code on the way.
func TestStartup_NoPackageMaps(t *testing.T) {
	found, err := initmaps.Program(".")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range found {
		t.Errorf("%s: a package-level map built at every start of the edge program", f)
	}
}
