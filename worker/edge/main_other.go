//go:build !(js && wasm)

package main

import (
	"fmt"
	"os"
)

// main explains that the edge program runs only in a Durable Object, compiled to js/wasm.
func main() {
	fmt.Fprintln(os.Stderr, "tabletop/worker/edge runs inside Cloudflare Durable Objects: build it with make worker, run it locally with make dev")
	os.Exit(2)
}
