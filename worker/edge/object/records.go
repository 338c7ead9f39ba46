package object

import (
	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/core/stored"
)

// Copying a span of a table to another object's store record by record, as stored:
// entities keep their Timestamps, and so their ETags, and deletion records come along, so
// the span reads the same in its new store and its change feed goes on there (with
// core's AdoptFeed). The records are read and written through core's raw seam
// (Tx.RawAscend, RawSet, RawDelete) under the layout core/stored names.

// movedKind is the kind of a record on its way to another store.
type movedKind byte

// The kinds of records a table's span is made of.
const (
	// movedTable is the table's own record: its name as created and its access policies.
	movedTable movedKind = 't'
	// movedEntity is an entity: its Timestamp and properties.
	movedEntity movedKind = 'e'
	// movedDeletion is the record of a deleted entity, for the change feed.
	movedDeletion movedKind = 'd'
)

// moved is one stored record of a table on its way to another store. value is opaque:
// only importRecords reads it.
type moved struct {
	kind         movedKind
	partitionKey string
	rowKey       string
	value        string
}

// exportRecords calls fn, until it returns false, with the records of table that lie in
// r: the table record, then its entities in key order, then its deletion records in key
// order. To resume after the last record fn was given, pass that record as after; pass
// nil to start. Records come in the order importRecords takes them.
func exportRecords(tx *core.Tx, table string, r stored.KeyRange, after *moved, fn func(m moved) bool) error {
	if _, err := tx.Table(table); err != nil {
		return err
	}
	id := stored.TableID(table)
	if after == nil {
		rec, _, err := tx.RawGet(stored.TableKey(id))
		if err != nil || !fn(moved{kind: movedTable, value: rec}) {
			return err
		}
		after = &moved{kind: movedTable}
	}
	if after.kind != movedDeletion {
		more, err := exportKind(tx, movedEntity, stored.TableEntities(id), r, after, fn)
		if err != nil || !more {
			return err
		}
		after = nil
	}
	_, err := exportKind(tx, movedDeletion, stored.TableDeletions(id), r, after, fn)
	return err
}

// exportKind gives fn the records under prefix in r, after the record after if it is of
// this kind, and reports whether fn wants more.
func exportKind(tx *core.Tx, kind movedKind, prefix string, r stored.KeyRange, after *moved, fn func(m moved) bool) (bool, error) {
	from, to := prefix+string(r.From), prefix+string(r.To)
	if after != nil && after.kind == kind {
		from = max(from, prefix+string(stored.KeyAfter(after.partitionKey, after.rowKey)))
	}
	more := true
	err := tx.RawAscend(from, to, func(k, v string) bool {
		pk, rk := stored.SplitEntityKey(k, len(prefix))
		more = fn(moved{kind: kind, partitionKey: pk, rowKey: rk, value: v})
		return more
	})
	return more, err
}

// importRecords writes records that exportRecords gave, as they were stored, into table
// (the table record first: an entity or deletion record of a table this store lacks is
// core.ErrTableNotFound). The store's clock moves past every Timestamp imported, so the
// next write of an imported entity changes its ETag.
func importRecords(tx *core.Tx, table string, recs []moved) error {
	id := stored.TableID(table)
	for _, m := range recs {
		var err error
		switch m.kind {
		case movedTable:
			err = tx.RawSet(stored.TableKey(id), m.value)
		case movedEntity:
			err = importStamped(tx, table, stored.EntityKey(id, m.partitionKey, m.rowKey), m)
		case movedDeletion:
			err = importStamped(tx, table, stored.DeletionKey(id, m.partitionKey, m.rowKey), m)
		default:
			err = model.ErrValueInvalid
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// importStamped writes one entity or deletion record at key and moves the clock past its
// Timestamp (a deletion record's stored form begins as an entity's: see core/stored).
func importStamped(tx *core.Tx, table, key string, m moved) error {
	if _, err := tx.Table(table); err != nil {
		return err
	}
	rec := stored.RecordOf(m.partitionKey, m.rowKey, m.value)
	if err := tx.AdvanceClock(rec.Timestamp()); err != nil {
		return err
	}
	return tx.RawSet(key, m.value)
}

// evictRecords removes the entities and deletion records of table in r, recording no
// deletion: they have moved to another store, they were not deleted. A table this store
// lacks has nothing to evict. It returns how many records it removed.
func evictRecords(tx *core.Tx, table string, r stored.KeyRange) (int, error) {
	id := stored.TableID(table)
	n := 0
	for _, prefix := range []string{stored.TableEntities(id), stored.TableDeletions(id)} {
		var keys []string
		err := tx.RawAscend(prefix+string(r.From), prefix+string(r.To), func(k, _ string) bool {
			keys = append(keys, k)
			return true
		})
		if err != nil {
			return n, err
		}
		for _, k := range keys {
			if err := tx.RawDelete(k); err != nil {
				return n, err
			}
		}
		n += len(keys)
	}
	return n, nil
}

// forgetTable removes table and every record of it from this store, recording no
// deletion: the table lives on in other objects.
func forgetTable(tx *core.Tx, table string) error {
	if _, err := evictRecords(tx, table, stored.WholeTable); err != nil {
		return err
	}
	return tx.RawDelete(stored.TableKey(stored.TableID(table)))
}
