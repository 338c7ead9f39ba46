// Command wasmsize prints how much of a WebAssembly module's code each Go package is:
// the size of each function's body in the code section, summed by the package its name
// (from the module's name section) belongs to, largest first. Go writes the name section
// unless linked with -s, so build the program to measure without it:
//
//	GOOS=js GOARCH=wasm go build -trimpath -o /tmp/named.wasm ./wasm
//	go run ./scripts/wasmsize [-n 40] [-funcs] /tmp/named.wasm
//
// -funcs lists the largest functions instead of packages. The figures are Go's output's,
// before wasm-opt (which shrinks code by a few percent).
package main
