package stored

import (
	"strings"
	"unsafe"
)

// The buntdb key layout. Every record of a store lives in one ordered key space:
//
//	t\0{table id}                              the table record: name as created, access policies
//	e\0{table id}\0{PartitionKey}\0{RowKey}   an entity: Timestamp and properties
//	d\0{table id}\0{PartitionKey}\0{RowKey}   a deleted entity's record: the deletion's Timestamp
//	d\0{table id}                              a deleted table's record: the deletion's Timestamp
//	i\0{table id}\0{property}                  a secondary index's declaration
//	m\0clock, m\0user/{name}                  the last Timestamp issued; host settings
//	s\0…, o\0…, r\0…, c\0…                     the browser's sync replica (core/replica)
//
// A table id is the lowercase table name (TableID). Keys may not contain U+0000–U+001F,
// so the \0 separator keeps tuple order: buntdb's binary key order is (PartitionKey,
// RowKey) in ordinal order, and a partition is a contiguous range (see KeyRange).

// TablePrefix starts the key of every table record.
const TablePrefix = "t\x00"

// EntityPrefix starts the key of every entity.
const EntityPrefix = "e\x00"

// MetaPrefix starts the key of every store metadata record: the clock, host settings.
const MetaPrefix = "m\x00"

// Sep separates the parts of a key: the table id, the PartitionKey and the RowKey.
const Sep = "\x00"

// DeletionPrefix starts the key of every deletion record.
const DeletionPrefix = "d\x00"

// IndexDeclPrefix starts the key of every secondary index's declaration.
const IndexDeclPrefix = "i\x00"

// TableIndexDecls is the prefix of the index declarations of a table.
func TableIndexDecls(id string) string { return IndexDeclPrefix + id + Sep }

// IndexDeclKey is the buntdb key declaring an index on property prop of table id.
func IndexDeclKey(id, prop string) string { return TableIndexDecls(id) + prop }

// TableKey is the buntdb key of a table record.
func TableKey(id string) string { return TablePrefix + id }

// TableEntities is the prefix of every entity key of a table.
func TableEntities(id string) string { return EntityPrefix + id + Sep }

// EntityKey is the buntdb key of entity (pk, rk) in table id.
func EntityKey(id, pk, rk string) string { return EntityPrefix + id + Sep + pk + Sep + rk }

// TableEntityKey is EntityKey(TableID(table), pk, rk) made in one allocation, where the
// two make two for a table name with a capital letter: the key of a point read. table
// must be a valid name (ValidateTableName), so ASCII.
func TableEntityKey(table, pk, rk string) string {
	b := make([]byte, 0, len(EntityPrefix)+len(table)+len(pk)+len(rk)+2*len(Sep))
	b = append(AppendTableID(append(b, EntityPrefix...), table), Sep...)
	b = append(append(append(b, pk...), Sep...), rk...)
	return unsafe.String(unsafe.SliceData(b), len(b)) // b is written by nothing after
}

// SplitEntityKey returns the PartitionKey and RowKey of an entity key, or of a key that
// KeyUnder made, given the length of its table's prefix.
func SplitEntityKey(key string, prefixLen int) (pk, rk string) {
	rest := key[prefixLen:]
	i := strings.IndexByte(rest, 0)
	if i < 0 {
		return rest, ""
	}
	return rest[:i], rest[i+1:]
}

// TableDeletions is the prefix of the deletion records of a table's entities.
func TableDeletions(id string) string { return DeletionPrefix + id + Sep }

// DeletionKey is the buntdb key of the deletion record of entity (pk, rk) in table id.
func DeletionKey(id, pk, rk string) string { return TableDeletions(id) + pk + Sep + rk }

// TableDeletionKey is the buntdb key of the deletion record of table id itself.
func TableDeletionKey(id string) string { return DeletionPrefix + id }

// TableID is the id a table's records are kept under: the case-folded form of its name,
// so that names compare case-insensitively while the name as created is kept in the table
// record.
func TableID(name string) string { return strings.ToLower(name) }

// KeyUnder is the key, under prefix, of a record about entity (pk, rk) of the table of
// id: such keys sort by (id, PartitionKey, RowKey), as entities do. A host keeps its own
// records about entities under a prefix of its own (core/replica's outbox).
func KeyUnder(prefix, id, pk, rk string) string { return prefix + id + Sep + pk + Sep + rk }

// PrefixUnder is the prefix of the keys KeyUnder makes for the entities of the table of id.
func PrefixUnder(prefix, id string) string { return prefix + id + Sep }

// AppendTableID appends table name s as TableID makes it, with no allocation of its own: a
// valid table name is ASCII, so its capitals are the only bytes to change.
func AppendTableID(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		b = append(b, c)
	}
	return b
}
