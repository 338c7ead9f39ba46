// Package outbox is a core.Backend that does no I/O itself: a host that cannot block the
// engine while it writes (the browser, where a call into Go must not wait for IndexedDB)
// opens the store on the snapshot and change sets it read, and after each write takes the
// records the store produced and makes them durable in order.
//
// Append queues a change set and Compact a snapshot of the whole store, as Records; Take
// hands them over and forgets them. The store considers a write committed once Append
// returns, so the host must not acknowledge the write, nor show its data to a reader,
// before the write's records are durable; if they cannot be made durable, the host
// discards the store and opens it again from what is durable.
//
// The host keeps the same guarantees as core/backend/kvlog: a Snapshot record replaces
// the stored snapshot and every change set before it; change sets after it are kept in
// order; replaying a change set twice is harmless. Writing a Snapshot and trimming the log
// in one atomic step leaves no torn state.
//
// Several replicas may share one host's storage (the browser's tabs each keep one): a
// host that stores one replica's records lets the others catch up with
// core.Store.ApplyChangeSet, applying every replica's change sets in the order it stored
// them, and tells them of a stored snapshot with core.Store.Compacted.
package outbox
