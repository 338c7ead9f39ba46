package core

import (
	"cmp"
	"errors"
	"fmt"

	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/core/stored"
)

// ScanIndex calls fn with each entity of a table whose value of prop lies in r (see
// IndexEq, IndexAbove, IndexBelow), as stored, in the index's order: by value, then by
// (PartitionKey, RowKey). It stops when fn returns false. fn is given the same *Record
// each time: copy the Record to keep it (a copy stays valid after the transaction). A
// table without an index on prop is ErrIndexNotFound.
func (tx *Tx) ScanIndex(table, prop string, r stored.IndexRange, fn func(rec *stored.Record) bool) error {
	if _, err := tx.Table(table); err != nil {
		return err
	}
	if _, ok, err := tx.get(stored.IndexDeclKey(stored.TableID(table), prop)); err != nil || !ok {
		return cmp.Or(err, ErrIndexNotFound) // a partial store may lack the declaration's range
	}
	prefix := stored.TableEntities(stored.TableID(table))
	if err := tx.store.need(prefix, prefix+"\xff"); err != nil {
		return err // an index holds the resident entities only: all of the table's must be
	}
	pivot := stored.EncodeEntity(0, []model.Property{{Name: prop, Value: r.Pivot()}})
	rec := new(stored.Record)
	return tx.btx.AscendGreaterOrEqual(indexName(stored.TableID(table), prop), pivot, func(k, v string) bool {
		*rec = stored.RecordOf("", "", v)
		val, ok := rec.Lookup(prop)
		if !ok {
			return true
		}
		in, more := r.Admits(val)
		if !in {
			return more
		}
		rec.PartitionKey, rec.RowKey = stored.SplitEntityKey(k, len(prefix))
		return fn(rec)
	})
}

// CheckIndexes verifies that every index of a table holds each entity of the table
// exactly once, in index order: a tool for tests and repairs, not for requests.
func (tx *Tx) CheckIndexes(table string) error {
	props, err := tx.Indexes(table)
	if err != nil {
		return err
	}
	id := stored.TableID(table)
	entities := 0
	if err := tx.ScanRecords(table, stored.WholeTable, func(*stored.Record) bool { entities++; return true }); err != nil {
		return err
	}
	for _, prop := range props {
		if err := tx.checkIndex(id, prop, entities); err != nil {
			return fmt.Errorf("check index %s of %s: %w", prop, table, err)
		}
	}
	return nil
}

// ErrIndexInconsistent means an index of a table does not hold exactly the table's
// entities in its order.
var ErrIndexInconsistent = errors.New("index does not agree with the table")

// checkIndex checks that the index on prop of table id holds entities items in order.
func (tx *Tx) checkIndex(id, prop string, entities int) error {
	less := stored.IndexLess(prop)
	prefix := stored.TableEntities(id)
	var prevKey, prevVal string
	n, bad := 0, false
	if err := tx.store.need(prefix, prefix+"\xff"); err != nil {
		return err
	}
	err := tx.btx.Ascend(indexName(id, prop), func(k, v string) bool {
		if len(k) < len(prefix) || k[:len(prefix)] != prefix || n > 0 && (less(v, prevVal) || !less(prevVal, v) && k <= prevKey) {
			bad = true
			return false
		}
		n++
		prevKey, prevVal = k, v
		return true
	})
	if err != nil {
		return err
	}
	if bad || n != entities {
		return fmt.Errorf("%d of %d entities: %w", n, entities, ErrIndexInconsistent)
	}
	return nil
}
