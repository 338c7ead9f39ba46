// Package bridge carries one HTTP exchange across the JavaScript boundary of a long-lived
// Go instance in a Durable Object, in as few crossings as possible.
//
// The JavaScript side sends a request as one head string and one byte array:
//
//	METHOD URL\n
//	Name: value\n        (one line per header; repeated names are repeated lines)
//
// and gets the answer back in the same shape, the status in place of the request line:
//
//	204\n
//	Name: value\n
//
// Serve decodes the request into an exchange.Request, runs an exchange.Handler (the
// worker/rest Handler) on it with an in-memory ResponseWriter and encodes the answer; no
// net/http is involved. It recovers a panic in the handler as a 500, so that one bad
// request cannot take down the instance that holds an object's state.
//
// ServeFrame does the same on one byte frame, the form the request crosses in: the head,
// then the body, in a buffer in Go's memory that the glue writes (its head's length is
// passed beside it); the answer frame is the head's length (4 bytes, little-endian), the
// head, then the body, which the glue reads back.
//
// The package is plain Go, with no syscall/js: it builds and is tested natively and under
// js/wasm. The js/wasm entry point (worker/edge/exports_js.go) moves the frames across.
package bridge
