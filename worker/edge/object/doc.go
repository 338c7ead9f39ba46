// Package object is the Go side of one Tabletop Durable Object at the edge: the store of
// one account (the catalog, for an account object) or of one table (for a table object),
// rebuilt from the object's storage when the object starts, and the REST handler over it.
//
// The JavaScript class of the object (worker/edge/src/objects.mjs) starts one long-lived
// Go instance, whose main (worker/edge/main_js.go) opens an Object, exports its
// ServeFrame to the glue with //go:wasmexport and hands it JSCall. One request crosses
// the boundary in one synchronous call, as one frame each way (see worker/edge/bridge);
// the internal operations keep a table's object in step with the account's catalog.
//
// The package's host glue builds only for js/wasm; natively only the operations that
// move a span of a table between objects (move.go, records.go) and the one that gives
// the glue's own answers their CORS headers (cors.go) build, so that they are tested
// there.
package object
