//go:build !js

package core

// DefaultScanImageBytes is the memory the scan images of a store may take together when
// Options.ScanImageBytes is zero: 64 MiB natively (under js/wasm, 8 MiB).
const DefaultScanImageBytes = 64 << 20
