//go:build js && wasm

package core

// DefaultScanImageBytes is the memory the scan images of a store may take together when
// Options.ScanImageBytes is zero: 8 MiB under js/wasm, where a browser tab or a Durable
// Object's isolate (128 MB at most) holds the whole store (natively, 64 MiB).
const DefaultScanImageBytes = 8 << 20
