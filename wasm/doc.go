// Command wasm is Tabletop's browser build: the engine compiled with GOOS=js GOARCH=wasm,
// exposing one store per database name to JavaScript. The ES module in web/ loads it; it
// is not meant to be called directly.
//
// # The JavaScript boundary
//
// Start registers one object, globalThis.tabletopGo, whose functions each perform one
// operation and cross the boundary once: arguments are strings and numbers, entities go
// in as one JSON string in Azure's wire form (the web module writes the type
// annotations), and results come back as one JSON string (a whole page of a query at
// once, in minimal metadata, so the annotations tell JavaScript the types). Every function
// returns a Promise and runs in its own goroutine: a write waits for its change set to be
// durable in IndexedDB, and a syscall/js callback must never block.
//
// A failure rejects the Promise with {code, statusCode, message, index}: the Azure error
// code and HTTP status the service answers with, chosen by core/azerr as for the REST
// API; index is the failing action of a transaction, or -1.
//
// # Persistence
//
// A persistent store is a core.Store over a kvlog.Backend over a idbstore.KV: the web module
// hands Go a small JavaScript object (get, scan, commit) over an IndexedDB database, and
// kvlog keeps its snapshot and change log there. net/http and the REST layer are not
// linked into this build.
//
// Natively the command only says that it must be built for js/wasm; the operations and
// the error table are plain Go and are tested natively.
package main
