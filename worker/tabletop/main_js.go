//go:build js

package main

import (
	"fmt"
	"os"
)

// main explains that the native server does not run under js/wasm, which has no sockets.
func main() {
	fmt.Fprintln(os.Stderr, "tabletop is the native server; under js/wasm use the browser build (./wasm) or the edge build (./worker/edge)")
	os.Exit(2)
}
