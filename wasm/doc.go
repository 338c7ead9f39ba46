// Command wasm is Tabletop's browser build: the engine compiled with GOOS=js GOARCH=wasm,
// exposing stores to JavaScript. The ES module in web/ loads it; it is not meant to be
// called directly.
//
// # The JavaScript boundary
//
// Each operation is one call of a function exported with //go:wasmexport, which runs
// synchronously on the caller's stack (main_js.go): JavaScript asks for a request buffer in
// Go's linear memory (tabletop_buffer), writes a request frame into it (frame.go: the
// operation's name, the store's handle and its arguments, strings written with
// TextEncoder.encodeInto), calls tabletop_call, and reads the result frame at
// tabletop_result: the answer, followed by the records a write left to make durable. A
// point read answers a binary entity (entity.go: type-tagged values written straight from
// the stored record, read by a DataView in JavaScript, with no JSON on either side); every
// other answer is JSON (a whole page of a query in Azure's wire form with every type
// annotated, so that a Double 5.0 is not taken for an Int32). No syscall/js value, callback, Promise or
// goroutine is involved, so a point read costs a fraction of a microsecond to cross.
//
// A failed call answers {code, statusCode, message, index}: the Azure error code and HTTP
// status the service answers with, chosen by core/azerr as for the REST API; index is the
// failing action of a transaction, or -1.
//
// # Persistence
//
// An exported function cannot wait for IndexedDB, so persistence is the web module's: a
// persistent store is a partial core.Store over an outbox.Backend. A write is applied at
// once and answers its change set; web/src/idb.js puts it in IndexedDB's log, and the web
// module resolves the write only once it is durable. Pages of the store are written from
// saveRange's answers when the log is compacted.
//
// A store opened "partial" (partial.go, core.Options.Partial) starts with no key range
// resident, so opening reads nothing: a call that needs a range answers {"need": [lo, hi]}
// (hex bounds) in place of an error object, having changed nothing; the web module loads
// the pages covering the range with their log (loadRange) and repeats the call. saveRange
// answers a range's records, the page IndexedDB keeps for it.
//
// # Every tab, one store
//
// Every browser tab keeps its own replica of a persistent store in its own engine. The web
// module calls a write inside an IndexedDB read-write transaction, after handing the
// engine, with the apply operation (replica.go, core.Store.ApplyChangeSet), the change sets
// other tabs committed since; the transaction serializes the tabs' writes. Change sets that
// arrive from other tabs on a BroadcastChannel are applied the same way, and compacted
// says that another tab wrote a snapshot. Opening uses apply too, to hand the log after the
// pages to a partial store in slices, so that no call blocks the page for long.
//
// # Sync
//
// The sync* operations (sync.go) serve web/src/sync.js: they mark a table as replicated,
// list its outbox, apply a page a remote endpoint answered (decoded here, so that every
// value keeps its exact type) with its checkpoint, and record pushes and conflicts, each
// in one transaction whose change set reaches IndexedDB like any write's (core/replica).
//
// The operations (api.go, ops.go, dump.go, policy.go, sync.go) are plain Go and are tested
// natively; natively the command only says that it must be built for js/wasm.
package main
