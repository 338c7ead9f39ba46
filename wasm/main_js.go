//go:build js && wasm

package main

import (
	"runtime"
	"unsafe"
)

// The JavaScript boundary: three functions exported with //go:wasmexport, called
// synchronously on the caller's stack. JavaScript asks for a request buffer of n bytes
// (tabletop_buffer), writes a request frame into it (frame.go), calls tabletop_call with
// the frame's length, and reads the result frame at tabletop_result. No syscall/js value,
// callback, Promise or goroutine is involved in a call (but the call yields to Go's
// scheduler as it ends, see exportCall).

// bigRequest is the size above which the request buffer is dropped after the call; the
// web module asks for a new one before its next call.
const bigRequest = 1 << 20

var (
	engine  = newAPI()
	request []byte // the request buffer; its address changes only when it grows
	result  []byte // the last result frame
)

// exportBuffer makes the request buffer at least n bytes long and returns its address.
//
//go:wasmexport tabletop_buffer
func exportBuffer(n int32) int32 {
	if int(n) > cap(request) || request == nil {
		request = make([]byte, max(int(n), 64<<10))
	}
	return address(request)
}

// exportCall performs the request frame in the first n bytes of the request buffer. It
// returns the result frame's length, negated when the call failed (the frame's JSON is
// then an error object).
//
//go:wasmexport tabletop_call
func exportCall(n int32) int32 {
	res, ok := engine.call(request[:n])
	// A call runs on JavaScript's stack, and Go's scheduler gets no turn of its own
	// between calls: a garbage collection the call started would wait for its background
	// worker until a timer woke Go, while the calls went on allocating far past the
	// collection's goal (web/README.md, "A large store"). Yielding here lets it run.
	runtime.Gosched()
	result = res
	if n > bigRequest {
		request = nil // a snapshot handed in at open: do not keep its room
	}
	if !ok {
		return -int32(len(res))
	}
	return int32(len(res))
}

// exportResult returns the address of the last result frame.
//
//go:wasmexport tabletop_result
func exportResult() int32 {
	if len(result) == 0 {
		return 0
	}
	return address(result)
}

func address(b []byte) int32 { return int32(uintptr(unsafe.Pointer(unsafe.SliceData(b)))) }

func main() {
	select {} // stay alive for calls
}
