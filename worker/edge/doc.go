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
// puts on binding the two functions the glue calls, and signals readiness:
//
//	binding.serve(head, body, resolve)  one HTTP exchange: resolve(head, body), see worker/edge/bridge
//	binding.call(op, arg, resolve)      an internal operation: resolve(result, error)
//
// If the object cannot be opened, binding.startError says why and the program ends.
//
// The JavaScript glue (src/), its tests (test/) and the local runtime scripts live beside
// this package; make worker builds the bundle and make dev runs it in local workerd.
package main
