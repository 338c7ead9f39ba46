// Package kvlog stores a core.Backend's snapshot and change log in a transactional
// key-value store: the form the browser (IndexedDB) and the edge (Durable Object storage)
// use, and the memory backend in tests.
//
// Layout, all under the KV's keys:
//
//	head                  → "gen chunks nextSeq firstSeq": the live snapshot generation, its
//	                        chunk count, the next log sequence number and the first live one
//	snap/{gen}/{chunk}    → the snapshot, which lists the records in key order, cut into
//	                        chunks of about PageBytes between records; read back to back
//	                        they are the whole snapshot
//	dir/{gen}             → the first key of each chunk (a snapshot of one chunk written
//	                        before chunks had a directory has none)
//	log/{seq}             → one committed change set per key, seq in fixed-width hex
//
// Append writes one log key in one KV commit. Compact writes the new snapshot, its
// directory, the new head, and deletes the old ones and the whole log in one KV commit,
// so a crash at any point leaves either the old or the new state, never a mix.
//
// A backend made Partial opens a store of core.Options.Partial from the head, the
// directory and the log alone, and loads the chunks a call needs (Run, LoadRange): the
// edge's Durable Objects answer their first request without reading the whole table.
//
// Commits are atomic, so nothing is torn: Load refuses, with a *DamageError naming the
// key, a head that does not parse, a snapshot chunk or log record missing from what the
// head names, a log record past it, and a record that does not replay; it writes nothing.
// Values carry no checksum: a damaged byte inside a record that still replays is served.
//
// Values are of any size. A storage that limits the size of one value splits values
// itself: Durable Object storage does (worker/edge/src/storage.mjs, 2 MiB), IndexedDB
// needs not.
package kvlog
