//go:build js && wasm

package main

import (
	"unsafe"

	"github.com/tabletopdb/tabletop/worker/edge/object"
)

// The request crossing: three functions exported with //go:wasmexport, which the glue
// (src/gohost.mjs) calls synchronously on its own stack, with no js.FuncOf callback,
// Promise or goroutine per request. It asks for a request buffer of n bytes
// (tabletop_buffer), writes the request's head and body into it, calls tabletop_serve
// with the head's length and the frame's, and reads the answer frame (bridge.ServeFrame's
// form) at tabletop_answer.

// bigFrame is the size above which a buffer is dropped at the next call rather than
// kept for the next request.
const bigFrame = 1 << 20

var (
	served  *object.Object // the object main opened; nil until it is open
	request []byte         // the request buffer; its address changes only when it grows
	answer  []byte         // the last answer frame
)

// exportBuffer makes the request buffer at least n bytes long and returns its address.
//
//go:wasmexport tabletop_buffer
func exportBuffer(n int32) int32 {
	if int(n) > cap(request) || cap(request) > bigFrame {
		request = make([]byte, max(int(n), 64<<10))
	}
	return address(request)
}

// exportServe answers the request in the first n bytes of the request buffer, whose
// first headLen bytes are its head, and returns the answer frame's length: 0 if no
// object is open (main has not signalled readiness, or it could not open one).
//
//go:wasmexport tabletop_serve
func exportServe(headLen, n int32) int32 {
	if served == nil || n < 0 || int(n) > len(request) {
		return 0
	}
	if cap(answer) > bigFrame {
		answer = nil
	}
	answer = served.ServeFrame(answer[:0], request[:n], int(headLen))
	return int32(len(answer))
}

// exportAnswer returns the address of the last answer frame.
//
//go:wasmexport tabletop_answer
func exportAnswer() int32 { return address(answer) }

// address is where b's bytes start in linear memory.
func address(b []byte) int32 { return int32(uintptr(unsafe.Pointer(unsafe.SliceData(b)))) }
