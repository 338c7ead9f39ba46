// Package replica is the browser's sync replica of a table: what a sync client
// (web/src/sync.js) keeps beside a local table to push the local changes to a remote
// Azure Table endpoint and pull the remote ones, in the same transactions as the table's
// own writes.
//
// A table tracked for sync (Track) keeps, beside its entities:
//
//	s\0{table id}                          the table is tracked; value: the client's checkpoint (opaque)
//	o\0{table id}\0{PartitionKey}\0{RowKey} outbox: the entity changed locally and is not pushed yet
//	r\0{table id}\0{PartitionKey}\0{RowKey} remote ETag: the server's ETag of the version the local copy derives from
//	c\0{table id}                          how many outbox records the table has (see outbox.go)
//
// Every local write of a tracked table (Apply, a batch, an import) adds the entity's
// outbox record in the same transaction, through the store's Hooks (a store opened with
// Options.Hooks = Hooks{}), so a write that is durable is also queued for the push.
// Writes the sync client makes (ApplyPulled, TakeRemote) do not. None of these records
// is an entity: no query, Get or change feed shows them. ApplyPulled applies a page of
// remote changes with its checkpoint in one transaction, leaving keys with a pending
// change alone; Acknowledge, TakeRemote and Rebase record a push's outcome.
package replica
