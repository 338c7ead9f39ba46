// Package stored is the form in which a Tabletop store keeps its data in buntdb: the key
// layout every record lives under, and the bytes of the records themselves.
//
//   - The key layout (layout.go): the prefix of each kind of record (tables, entities,
//     deletion records, index declarations, metadata, and a host's own under prefixes of
//     its own, KeyUnder), and the keys built from them. Keys sort as (table, PartitionKey,
//     RowKey) tuples, so a table and a partition are contiguous ranges, which Bound and
//     KeyRange name for the query planner.
//   - The entity record (entity_codec.go, record*.go): an entity's Timestamp and
//     properties in a compact binary form, which Record reads in place without building
//     an Entity, and EncodeEntity and DecodeEntity write and read whole.
//   - The order of a secondary index (index_codec.go): how stored entities are ordered by
//     one property's value, and IndexRange, a run of that order a query reads.
//   - Change sets and snapshots (commands.go): the stream of buntdb "set"/"del" commands
//     that backends store and a store replays.
//
// Everything here is a pure function of its arguments: the engine that reads and writes
// these records, in transactions, is package core, which also keeps the form of the two
// records that only it reads: a table's (core.Table, written with AppendString) and a
// deletion record's (a version byte and a Timestamp). A change here changes what every
// existing store holds, on disk, in IndexedDB and at the edge: an entity record starts
// with a version byte (Version) so that a new form can be told from the old.
package stored
