// Command edge is Tabletop at the edge, compiled to js/wasm: one long-lived Go instance per
// Durable Object, which the JavaScript glue beside it (src/) starts with a runtime context
// in the shape syumai/workers uses (globalThis.context = {env, ctx, binding}), read once
// here, at start. The program reads that context itself and does not link syumai/workers:
// its workers and cloudflare packages import net/http (its request conversion), which
// would bring crypto/tls and crypto/x509 into the binary; TestDependencies in
// worker/native keeps them out.
//
// The glue puts on binding the object's account name and its storage adapter
// (worker/edge/src/storage.mjs); main opens the object's store from that storage, then
// puts on binding the function for internal operations, and signals readiness:
//
//	binding.call(op, arg, resolve)  an internal operation: resolve(result, error)
//
// Requests do not go through binding: each is one synchronous call of the functions
// exports_js.go exports with //go:wasmexport (tabletop_buffer, tabletop_serve,
// tabletop_answer; src/frame.mjs is the glue's side), the request and its answer written
// as frames into Go's memory (see worker/edge/bridge). No js.FuncOf callback, Promise or
// goroutine is involved.
//
// If the object cannot be opened, binding.startError says why and the program ends.
//
// The JavaScript glue (src/), its tests (test/) and the local runtime scripts live beside
// this package; make worker builds the bundle and make dev runs it in local workerd.
package main
