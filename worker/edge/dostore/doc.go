// Package dostore is a kvlog.KV over a Durable Object's storage, for the Go instance that a
// Durable Object hosts at the edge: the table's snapshot and change log live in the
// object's SQLite-backed storage, and an evicted or restarted object rebuilds its store
// from them.
//
//	kv := dostore.New(adapter)          // adapter: kvStorage(ctx.storage), worker/edge/src/storage.mjs
//	store, err := core.Open(core.Options{Backend: kvlog.New(kv)})
//
// Go cannot run a storage transaction itself: ctx.storage.transactionSync rolls back only
// when its callback throws, and a Go callback cannot throw into JavaScript. So the
// transaction, and the splitting of values over the storage's 2 MiB limit into parts,
// are in the small JavaScript adapter; this package moves keys and bytes across in packed
// form, a few boundary crossings per call:
//
//	adapter.get(key)                       → Uint8Array, or undefined
//	adapter.list(prefix)                   → [text, data]: "key\tlength\n" lines, values back to back
//	adapter.commit(putText, data, delText) → in one transactionSync; throws with nothing applied
//
// Durability: a commit is in the object's storage when commit returns, and the runtime's
// output gate holds the object's answer until the write is confirmed durable, so a write
// is acknowledged to a client only once it is durable.
//
// Keys must not contain a tab, a newline or U+0001 (ErrBadKey). The package builds only
// for js/wasm; natively it is empty.
package dostore
