// Package kvlog stores a core.Backend's snapshot, in pages, and change log in a
// transactional key-value store: the edge's Durable Object storage (worker/edge/dostore),
// and the memory backend in tests. (The browser keeps its own layout of pages in
// IndexedDB, web/src/idb.js.)
//
// Layout, all under the KV's keys:
//
//	head                  → "gen pages nextSeq firstSeq": a generation counted by
//	                        compactions, the number of pages, the next log sequence
//	                        number and the first live one
//	pages                 → the directory: the next page id, then each page's id and the
//	                        first key of its range, in key order (the first page's is "")
//	page/{id}             → a page: the records of its key range as buntdb commands, in key
//	                        order; read back to back, the pages are a snapshot of the store
//	log/{seq}             → one committed change set per key, seq in fixed-width hex
//	snap/{gen}/{chunk}    → a snapshot written before pages (no directory): read whole as
//	                        one page until the next compaction replaces it
//
// Append writes one log key in one KV commit. Compact cuts the snapshot the store saves
// into pages of about PageBytes and writes them, the directory and the head, and deletes
// the old pages and the whole log, in one KV commit, so a crash at any point leaves
// either the old or the new state, never a mix.
//
// A backend made Partial opens a store of core.Options.Partial from the head, the
// directory and the log alone, and loads the pages a call needs (Run, LoadRange); its
// host compacts it with CompactPages, which rewrites only the pages the log touched, in
// one KV commit too. The edge's Durable Objects so answer their first request without
// reading their whole table.
//
// Commits are atomic, so nothing is torn: Load refuses, with a *DamageError naming the
// key, a head or directory that does not parse, a page or log record missing from what
// they name, a log record past it, and a record that does not replay; it writes nothing
// (a partial store meets a page's damage when a call loads it).
//
// Values carry no checksum: a damaged byte inside a record that still replays is served.
//
// Values are of any size. A storage that limits the size of one value splits values
// itself: Durable Object storage does (worker/edge/src/storage.mjs, 2 MiB), IndexedDB
// needs not.
package kvlog
