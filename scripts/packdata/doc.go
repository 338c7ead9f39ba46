// Command packdata rewrites a WebAssembly module's data section so that its active
// segments, which Go's linker writes one per run of non-zero bytes (a great many for the
// edge program), become a few segments covering the same bytes, the gaps between them
// filled with zeros. Linear memory starts zeroed, so the memory an instance starts with
// is byte for byte the same; what changes is the work and the size: V8 decodes each
// segment when it compiles the module, which for so many segments is time a cold start
// feels, and the segments' headers compress worse than the zeros that replace them (the
// packed edge wasm gzips noticeably smaller).
//
//	go run ./scripts/packdata module.wasm          (in place; worker/edge/build.sh runs it)
//	go run ./scripts/packdata -column module.wasm  (make web runs it)
//
// With -column it first takes Go's findfunctab out of the data (Lift): a table with a
// 20-byte record per 4,096 bytes of code address, which in a Go wasm program is 16
// records per function, each a uint32 then 16 zeros, a large share of the browser's
// module. The data keeps each value's increase over the one before instead, one byte per
// record, and a start function the module gains writes the values back when it is
// instantiated, before Go's runtime runs: the same memory from a much smaller module,
// which every warm start in a browser reads, copies and matches.
//
// Segments closer than MaxGap bytes are merged. Only what Go's linker writes is
// accepted: active segments of memory 0 with an i32.const offset, none overlapping;
// anything else (passive segments, other memories, other offset expressions) is
// ErrUnsupported and the module is left as it is; a module with two data sections is
// ErrMalformed (the format allows one).
package main
