// Package kvlog stores a core.Backend's snapshot and change log in a transactional
// key-value store: the form the browser (IndexedDB) and the edge (Durable Object storage)
// use, and the memory backend in tests.
//
// Layout, all under the KV's keys:
//
//	head                  → "gen chunks nextSeq firstSeq": the live snapshot generation, its
//	                        chunk count, the next log sequence number and the first live one
//	snap/{gen}/{chunk}    → the snapshot: one value (chunk 0) when this package writes it;
//	                        the chunks of a snapshot are read back to back
//	log/{seq}             → one committed change set per key, seq in fixed-width hex
//
// Append writes one log key in one KV commit. Compact writes the new snapshot, the new
// head, and deletes the old snapshot and the whole log in one KV commit, so a crash at
// any point leaves either the old or the new state, never a mix.
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
