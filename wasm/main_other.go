//go:build !(js && wasm)

package main

import (
	"fmt"
	"os"
)

// main explains that this command is the browser build.
func main() {
	fmt.Fprintln(os.Stderr, "tabletop/wasm is the browser build: GOOS=js GOARCH=wasm go build -o web/dist/tabletop.wasm ./wasm")
	os.Exit(2)
}
