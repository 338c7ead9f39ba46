// One request's crossing into a Go instance and back, as one synchronous call of the
// functions worker/edge/exports_js.go exports with //go:wasmexport: no js.FuncOf callback,
// Promise or goroutine per request. The request's head (worker/edge/bridge's form) is
// written as UTF-8 into Go's request buffer, its body after it; the answer frame is the
// head's length (4 bytes, little-endian), the head, then the body.

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** HEAD_LEN is the size of the head's length at the start of an answer frame. */
const HEAD_LEN = 4;

/**
 * serveFrame answers the request of head (a string) and body (a Uint8Array) in the Go
 * instance whose exports and memory (a WebAssembly.Memory) are given, with [head, body].
 * It throws if the instance serves no object. Views of the memory are made after each
 * call into Go, which may grow it (and so detach the old buffer).
 */
export function serveFrame(exports, memory, head, body) {
  const room = head.length * 3; // UTF-8 takes at most 3 bytes per UTF-16 unit
  const at = exports.tabletop_buffer(room + body.length);
  let mem = new Uint8Array(memory.buffer);
  const { written } = encoder.encodeInto(head, mem.subarray(at, at + room));
  mem.set(body, at + written);
  const n = exports.tabletop_serve(written, written + body.length);
  if (n < HEAD_LEN) throw new Error("the Go instance serves no object");
  const out = exports.tabletop_answer();
  mem = new Uint8Array(memory.buffer);
  const headLen = mem[out] | (mem[out + 1] << 8) | (mem[out + 2] << 16) | (mem[out + 3] << 24);
  const start = out + HEAD_LEN;
  if (headLen < 0 || start + headLen > out + n) throw new Error("the Go instance answered a malformed frame");
  return [decoder.decode(mem.subarray(start, start + headLen)), mem.slice(start + headLen, out + n)];
}
