// Package idbstore is a kvlog.KV over a JavaScript storage object, so that a store in the
// browser keeps its snapshot and change log in IndexedDB (web/idb.js implements the object)
// or in any other asynchronous JavaScript storage with the same three methods:
//
//	get(key: string): Promise<Uint8Array | undefined>
//	scan(prefix: string): Promise<[string[], Uint8Array[]]>   // in key order
//	commit(keys: string[], values: Uint8Array[], deletes: string[]): Promise<void>
//
// commit must apply the puts and deletes atomically and resolve only once they are
// durable. A rejection becomes an *Error carrying the rejection's code and statusCode.
//
// Every method blocks its goroutine until the Promise settles: call them from a goroutine,
// never from a syscall/js callback. The package exists only under GOOS=js GOARCH=wasm.
package idbstore
