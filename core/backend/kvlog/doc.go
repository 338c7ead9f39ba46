// Package kvlog stores a core.Backend's snapshot and change log in a transactional
// key-value store: the form the browser (IndexedDB) and the edge (Durable Object storage)
// use, and the memory backend in tests.
//
// Layout, all under the KV's keys:
//
//	head                  → "gen chunks nextSeq firstSeq": the live snapshot generation, its
//	                        chunk count, the next log sequence number and the first live one
//	snap/{gen}/{chunk}    → the snapshot, split into chunks of at most ChunkSize bytes
//	log/{seq}             → one committed change set per key, seq in fixed-width hex
//
// Append writes one log key in one KV commit. Compact writes the new snapshot's chunks,
// the new head, and deletes the old chunks and the whole log in one KV commit, so a crash
// at any point leaves either the old or the new state, never a mix.
package kvlog
