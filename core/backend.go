package core

import "io"

// Backend makes a store's committed change sets durable and gives them back when the store
// is opened again. Each host plugs in its own: a file natively, IndexedDB in the browser,
// Durable Object storage at the edge, or memory in tests.
//
// Change sets and snapshots are opaque byte streams to a backend (they are buntdb command
// streams). Replaying the snapshot and then every change set appended after it, in order,
// restores the store exactly; replaying a change set twice is harmless, so a backend that
// crashes between writing a snapshot and trimming its log may replay a little of the log
// again.
type Backend interface {
	// Load calls snapshot with the latest snapshot, if there is one, then changeSet with
	// each change set appended after that snapshot, in the order they were appended.
	Load(snapshot func(r io.Reader) error, changeSet func(cs []byte) error) error
	// Append records one committed change set. When Append returns nil the change set is
	// durable under the backend's policy; the store acknowledges the write only then.
	// The store never calls Append concurrently.
	Append(cs []byte) error
	// Compact replaces everything stored with a snapshot of the whole state, which save
	// writes. The store calls it with no commit in flight.
	Compact(save func(w io.Writer) error) error
	// Close releases the backend. Append and Compact must not be called after it.
	Close() error
}

// GroupCommitter is a Backend that splits Append in two, so that a commit holds the
// store's write lock only while its change set is written, and waits for durability after
// releasing it: readers never wait for the disk, and commits that wait together share one
// sync. The store uses it in place of Append when a Backend implements it.
type GroupCommitter interface {
	Backend
	// Write records one committed change set, after every one written before it, without
	// waiting for it to be durable, and returns its sequence number, which increases with
	// every change set. The store calls Write under its write lock, never concurrently. A
	// failed Write must leave nothing of the change set to be replayed.
	Write(cs []byte) (seq uint64, err error)
	// Sync returns nil once every change set written up to seq is durable under the
	// backend's policy. Concurrent callers share syncs: one sync covers every change set
	// written before it starts. Once a sync fails, Sync fails for every change set it did
	// not cover, and Write for every new one, until Discard.
	Sync(seq uint64) error
	// Discard recovers from a failed Write or Sync: every change set not durable is
	// dropped, and writing resumes after the last durable one. It returns that one's
	// sequence number and whether there was a failure to recover from; an error means the
	// backend could not drop them and stays failed. The store calls it with no Write or
	// Sync in flight, having undone the dropped change sets in memory.
	Discard() (durable uint64, failed bool, err error)
}
