package core

import (
	"strconv"

	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/core/stored"
	"github.com/tidwall/buntdb"
)

// Copying a key range of a table to another store, record by record as stored: entities
// keep their Timestamps, and so their ETags, and deletion records come along, so the
// range reads the same in its new store. A host that serves one table from several stores
// copies a range with Export and Import, drops it from the old store with Evict, and has
// the new store continue the old one's change feed with AdoptFeed. Which ranges to move,
// and when, is the host's (the edge's split policy: worker/edge/object).

// MovedKind is the kind of a record on its way to another store.
type MovedKind byte

// The kinds of records a table's range is made of.
const (
	// MovedTable is the table's own record: its name as created and its access policies.
	MovedTable MovedKind = 't'
	// MovedEntity is an entity: its Timestamp and properties.
	MovedEntity MovedKind = 'e'
	// MovedDeletion is the record of a deleted entity, for the change feed.
	MovedDeletion MovedKind = 'd'
)

// Moved is one stored record of a table on its way to another store. Value is opaque:
// only Import reads it.
type Moved struct {
	Kind         MovedKind
	PartitionKey string
	RowKey       string
	Value        string
}

// rangeKeys returns the keys, under prefix, that enclose the records of r: keys are
// prefix + pk + \0 + rk, as a Bound encodes (pk, rk) after the table's prefix.
func rangeKeys(prefix string, r stored.KeyRange) (from, to string) {
	return prefix + string(r.From), prefix + string(r.To)
}

// Export calls fn, until it returns false, with the records of table that lie in r:
// the table record, then its entities in key order, then its deletion records in key
// order. To resume after the last record fn was given, pass that record as after; pass
// nil to start. Records are given in the order Import takes them.
func (tx *Tx) Export(table string, r stored.KeyRange, after *Moved, fn func(m Moved) bool) error {
	t, err := tx.Table(table)
	if err != nil {
		return err
	}
	id := stored.TableID(table)
	if after == nil {
		if !fn(Moved{Kind: MovedTable, Value: encodeTable(t)}) {
			return nil
		}
		after = &Moved{Kind: MovedTable}
	}
	more := true
	if after.Kind != MovedDeletion {
		more, err = tx.exportKind(MovedEntity, stored.TableEntities(id), r, after, fn)
		if err != nil || !more {
			return err
		}
		after = nil
	}
	_, err = tx.exportKind(MovedDeletion, stored.TableDeletions(id), r, after, fn)
	return err
}

// exportKind gives fn the records under prefix in r, after the record after if it is
// of this kind, and reports whether fn wants more.
func (tx *Tx) exportKind(kind MovedKind, prefix string, r stored.KeyRange, after *Moved, fn func(m Moved) bool) (bool, error) {
	from, to := rangeKeys(prefix, r)
	if after != nil && after.Kind == kind {
		from = max(from, prefix+string(stored.KeyAfter(after.PartitionKey, after.RowKey)))
	}
	more := true
	err := tx.ascend(from, to, func(k, v string) bool {
		pk, rk := stored.SplitEntityKey(k, len(prefix))
		more = fn(Moved{Kind: kind, PartitionKey: pk, RowKey: rk, Value: v})
		return more
	})
	return more, err
}

// Import writes records that Export gave, as they were stored, into table (the table
// record first: an entity or deletion record of a table this store lacks is
// ErrTableNotFound). The store's clock moves past every Timestamp imported, so the next
// write of an imported entity changes its ETag.
func (tx *Tx) Import(table string, recs []Moved) error {
	id := stored.TableID(table)
	for _, m := range recs {
		var err error
		switch m.Kind {
		case MovedTable:
			err = tx.set(stored.TableKey(id), m.Value)
		case MovedEntity:
			err = tx.importStamped(table, stored.EntityKey(id, m.PartitionKey, m.RowKey), m.Value)
		case MovedDeletion:
			err = tx.importStamped(table, stored.DeletionKey(id, m.PartitionKey, m.RowKey), m.Value)
		default:
			err = model.ErrValueInvalid
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// importStamped writes one entity or deletion record and advances the clock past it.
func (tx *Tx) importStamped(table, key, value string) error {
	if _, err := tx.Table(table); err != nil {
		return err
	}
	if ts := stampOf(value); ts > tx.store.clock {
		tx.store.clock = ts
		if err := tx.set(clockKey, strconv.FormatInt(int64(ts), 10)); err != nil {
			return err
		}
	}
	return tx.set(key, value)
}

// Evict removes the entities and deletion records of table in r, recording no
// deletion: they have moved to another store, they were not deleted. A table this store
// lacks has nothing to evict.
func (tx *Tx) Evict(table string, r stored.KeyRange) (int, error) {
	id := stored.TableID(table)
	n := 0
	for _, prefix := range []string{stored.TableEntities(id), stored.TableDeletions(id)} {
		from, to := rangeKeys(prefix, r)
		var keys []string
		err := tx.ascend(from, to, func(k, _ string) bool {
			keys = append(keys, k)
			return true
		})
		if err != nil {
			return n, err
		}
		for _, k := range keys {
			if err := tx.del(k); err != nil {
				return n, err
			}
		}
		n += len(keys)
	}
	return n, nil
}

// Forget removes table and every record of it from this store, recording no deletion:
// the table lives on in other stores.
func (tx *Tx) Forget(table string) error {
	if _, err := tx.Evict(table, stored.WholeTable); err != nil {
		return err
	}
	return tx.del(stored.TableKey(stored.TableID(table)))
}

// Records returns how many records the store holds: entities, deletion records and a few
// of the store's own. It takes constant time: a cheap measure of a store's size, which
// is what a host watches to decide when to split a table across stores.
func (s *Store) Records() (int, error) {
	var n int
	err := s.db.View(func(btx *buntdb.Tx) (err error) {
		n, err = btx.Len()
		return err
	})
	return n, mapClosed(err)
}
