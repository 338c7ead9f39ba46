// Package initmaps finds the package-level maps a Go program builds at every start. A
// variable declared with a map literal or a make of a map is filled by code that runs
// before main; compiled to WebAssembly and started in V8, which compiles each function
// on its first call, that code is compiled too before the program can answer anything.
// The browser program (wasm/) and the edge program (worker/edge/) each hold themselves
// to having none, with a test that calls Program; a switch, or an array indexed by a
// small enum, costs nothing at start, and a map filled later, on first use, is not
// declared with a value and passes.
package initmaps
