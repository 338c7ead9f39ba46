// Package core is Tabletop's portable engine: a store of Azure Table service tables and
// entities in an ordered buntdb index, with transactions, entity group transactions,
// ordered range reads for the query planner, secondary indexes and a change feed. The
// data model it stores (entities, the eight EDM property types and the rules that
// constrain them) is package core/model; core applies those rules to every write. The
// form it stores them in (the key layout below, the binary entity record, the order of
// an index, the command stream of change sets) is package core/stored.
//
// The package knows nothing of its host. It imports neither net/http nor syscall/js, so
// the same rules hold in the native server, in the browser build and at the edge, and its
// tests pass natively and under GOOS=js GOARCH=wasm.
//
// # Key layout
//
// Every record lives in one buntdb key space, ordered by binary key (core/stored builds
// the keys):
//
//	t\x00{lower(table)}                    → table record (name as created, access policies)
//	e\x00{lower(table)}\x00{PK}\x00{RK}    → entity (timestamp and properties, binary)
//	d\x00{lower(table)}\x00{PK}\x00{RK}    → deletion record (the deletion's timestamp)
//	d\x00{lower(table)}                    → deletion record of a table
//	m\x00{name}                            → store metadata (the timestamp clock, ...)
//	i\x00{lower(table)}\x00{prop}           → a secondary index's declaration
//	s\x00{lower(table)}                    → sync: a replicated table's checkpoint
//	o\x00{lower(table)}\x00{PK}\x00{RK}    → sync: outbox (changed locally, not pushed)
//	r\x00{lower(table)}\x00{PK}\x00{RK}    → sync: the remote ETag of the local copy
//
// Keys may not contain U+0000–U+001F, so the \x00 separator keeps tuple order: binary
// order of the encoded key is (PartitionKey, RowKey) in ordinal order of UTF-8 bytes,
// which is Unicode code point order.
//
// # Secondary indexes
//
// A table may have opt-in indexes on custom properties (Tx.CreateIndex, or
// Options.Indexes). Each is a buntdb index over the table's entity keys, ordered by the
// property's value (stored.IndexLess) and then by key; buntdb maintains it in the same
// transaction as every write and rolls it back with it, and it holds the stored entities
// themselves, so an index read (Tx.ScanIndex) needs no second lookup. Only the
// declaration is stored: the index is built when declared and again as the store opens,
// so nothing of it is logged, replayed or left behind by a crash. Numbers of the three
// numeric types share one order, as filters compare them; an Int64 beyond 2^53 is placed
// at its nearest float64, so an index read is a superset that the query tests with its
// whole filter.
//
// # Scan images
//
// A table scanned a few times (imageAfter) with no write between, by scans that have read
// about as many entities as it holds (imageWalkMin), gets a scan image: a
// copy of its keys and stored records packed into one string in key order, which later
// read-only scans (Tx.ScanRecords) read front to back instead of walking buntdb's tree,
// whose items, keys and values are separate allocations, about three cache misses per
// entity once a table outgrows the processor's cache. A write to a table with an image
// patches it: a write transaction collects its writes and, once it has committed and
// still under buntdb's write lock, adds them to a short sorted list beside the packed
// entities (at most maxPatches), which scans merge in key order; a transaction that
// rolls back leaves the image as it was. An image is built inside a read transaction,
// under its read lock, so a scan reads an image only when it holds exactly the snapshot
// the scan's transaction sees; change sets loaded outside a transaction (ApplyChangeSet)
// retire every image built before them. A write transaction never reads or builds one.
// Images take at most Options.ScanImageBytes together (DefaultScanImageBytes); a table
// too large for the rest is scanned from the tree, and one whose images are dropped
// before they serve as many scans as they waited for waits longer for the next.
// Partial stores keep none.
//
// # Point maps
//
// A table read by a few score point reads (pointAfter) with no write between gets a
// point map: a hash map from entity key to stored record, sharing the tree's strings,
// which later read-only point reads (Tx.Get, Tx.GetRecord) look up instead of walking
// buntdb's tree. A write to the table patches it in place once the write transaction has
// committed, still under buntdb's write lock (a transaction that rolls back leaves it as
// it was); it is built inside a read transaction, and change sets loaded outside a
// transaction retire it, as for scan images. Maps count against Options.ScanImageBytes apart from the images, and
// partial stores keep none. Both kinds keep their per-table bookkeeping (when a table
// gets one, the byte limit, the loads stamp) in one type, derived (derived.go).
//
// # Change feed
//
// Tx.Changes lists a table's entities and deletion records in (Timestamp, PartitionKey,
// RowKey) order from a Checkpoint, for sync clients: every write transaction takes a
// later Timestamp than all before it, so resuming after the last change seen neither
// skips nor repeats a change. Deletion records are kept for Options.DeletionRetention; a
// checkpoint that may have missed a purged one is ErrCheckpointExpired, judged by the
// store's clock it carries (Checkpoint.Synced: when its read began, or last caught up
// with the end of the feed, Tx.CaughtUp), so tables older than the purged records still
// page from the start to the end. A checkpoint also carries the identities of the store
// and of the table's incarnation (Table.Incarnation, random, made by CreateTable), so one
// from another store's history is ErrCheckpointOtherStore and one of a table deleted
// since is ErrTableReplaced: unlike an expiry, neither lets a reader take what the table
// lacks for deleted (see checkpoint.go). Two in-memory
// buntdb indexes order entities and deletion records by Timestamp; they are rebuilt as the
// store loads, and nothing of them is stored. A store opened with Options.NoChangeFeed
// (the browser's, which syncs against a server's feed) keeps no index of entities and
// answers no feed.
//
// # Records of a host's own
//
// A host keeps records of its own beside the data model's, in the same transactions,
// through the Raw methods of Tx and the store's Hooks, which the application's writes call
// (extend.go): the browser's sync replica (core/replica) queues each local write of a
// tracked table for the push that way. A store without Hooks (the native server's, the
// edge's) runs no such code on a write. The edge moves a key range of a table to another
// store the same way (worker/edge/object): it copies the records as stored, moves the new
// store's clock past them (Tx.AdvanceClock), and has the new store continue the table's
// change feed (Tx.AdoptFeed, feedstate.go).
//
// # Durability
//
// buntdb holds the working set in memory. Each committed write transaction becomes a
// change set (a stream of buntdb "set"/"del" commands) that is handed to the store's
// Backend before the transaction is acknowledged; a snapshot (buntdb's own Save format)
// replaces the log from time to time. See Backend, and GroupCommitter for a backend whose
// commits share syncs without holding the write lock while they wait.
//
// # Partial stores
//
// A store opened with Options.Partial holds only the key ranges its host has loaded
// (Store.LoadRange: a page of a snapshot, written by Store.SaveRange, and the change sets
// after it), so opening costs nothing and memory follows the working set. Every read and
// write of a transaction checks the range it touches before touching it; one that is not
// resident fails the call with a *NeedRangeError (ErrNeedRange) naming the first absent
// range, and the host loads it and repeats the call. A scan needs only the part it reads
// before it stops. What cannot be judged from part of a range needs all of it: an index
// scan the table's whole entity range (buntdb builds an index from resident records), the
// change feed the table's entities and deletion records, the purge of deletion records
// every table's. Change sets from other replicas (ApplyChangeSet), and those of the log a
// backend hands a partial store as it opens, are applied to resident keys and deferred for
// the others until their range is loaded. Two hosts use partial stores: the browser, whose
// module keeps the pages in IndexedDB and evicts ranges past a budget (EvictRange), and
// the edge's Durable Objects, over kvlog's pages (core/backend/kvlog, Partial).
package core
