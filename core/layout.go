package core

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
//	i\0{table id}\0{property}                  a secondary index's declaration (index.go)
//	m\0clock, m\0user/{name}                  the last Timestamp issued; host settings
//	s\0…, o\0…, r\0…, c\0…                     the browser's sync replica (core/replica)

//
// A table id is the lowercase table name. Keys may not contain U+0000–U+001F, so the \0
// separator keeps tuple order: buntdb's binary key order is (PartitionKey, RowKey) in
// ordinal order, and a partition is a contiguous range (see KeyRange).

// Record kinds: the first byte of every buntdb key.
const (
	tablePrefix  = "t\x00"
	entityPrefix = "e\x00"
	metaPrefix   = "m\x00"
	sep          = "\x00"
)

// deletionPrefix is the first byte of every deletion record's key.
const deletionPrefix = "d\x00"

// indexDeclPrefix is the first byte of every secondary index's declaration (see index.go).
const indexDeclPrefix = "i\x00"

// tableIndexDecls is the prefix of the index declarations of a table.
func tableIndexDecls(id string) string { return indexDeclPrefix + id + sep }

// indexDeclKey is the buntdb key declaring an index on property prop of table id.
func indexDeclKey(id, prop string) string { return tableIndexDecls(id) + prop }

// tableKey is the buntdb key of a table record.
func tableKey(id string) string { return tablePrefix + id }

// tableEntities is the prefix of every entity key of a table.
func tableEntities(id string) string { return entityPrefix + id + sep }

// entityKey is the buntdb key of entity (pk, rk) in table id.
func entityKey(id, pk, rk string) string { return entityPrefix + id + sep + pk + sep + rk }

// tableEntityKey is entityKey(tableID(table), pk, rk) made in one allocation, where the
// two make two for a table name with a capital letter: the key of a point read. table
// must be a valid name (ValidateTableName), so ASCII.
func tableEntityKey(table, pk, rk string) string {
	b := make([]byte, 0, len(entityPrefix)+len(table)+len(pk)+len(rk)+2*len(sep))
	b = append(appendLower(append(b, entityPrefix...), table), sep...)
	b = append(append(append(b, pk...), sep...), rk...)
	return unsafe.String(unsafe.SliceData(b), len(b)) // b is written by nothing after
}

// splitEntityKey returns the PartitionKey and RowKey of an entity key, given its table prefix length.
func splitEntityKey(key string, prefixLen int) (pk, rk string) {
	rest := key[prefixLen:]
	i := strings.IndexByte(rest, 0)
	if i < 0 {
		return rest, ""
	}
	return rest[:i], rest[i+1:]
}

// tableDeletions is the prefix of the deletion records of a table's entities.
func tableDeletions(id string) string { return deletionPrefix + id + sep }

// deletionKey is the buntdb key of the deletion record of entity (pk, rk) in table id.
func deletionKey(id, pk, rk string) string { return tableDeletions(id) + pk + sep + rk }

// tableDeletionKey is the buntdb key of the deletion record of table id itself.
func tableDeletionKey(id string) string { return deletionPrefix + id }

// tableID is the case-folded form of a table name under which the table is stored, so that
// names compare case-insensitively while the name as created is kept in the table record.
func tableID(name string) string { return strings.ToLower(name) }

// appendLower appends table name s as tableID makes it, with no allocation of its own: a
// valid table name is ASCII, so its capitals are the only bytes to change.
func appendLower(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		b = append(b, c)
	}
	return b
}
