package core

import (
	"errors"
	"fmt"
)

// ErrIndexInconsistent means an index of a table does not agree with its entities: an
// entry missing, left over, or holding another value than the entity's.
var ErrIndexInconsistent = errors.New("index does not agree with the table")

// CheckIndexes verifies that every index of a table holds exactly one entry for each
// entity that has the indexed property, with the entity's value, and nothing else. It
// reads the whole table and every index: a tool for tests and repairs, not for requests.
func (tx *Tx) CheckIndexes(table string) error {
	props, err := tx.Indexes(table)
	if err != nil {
		return err
	}
	id := tableID(table)
	for _, prop := range props {
		want := map[string]bool{}
		err := tx.ScanRecords(table, WholeTable, func(rec *Record) bool {
			if v, ok := rec.Lookup(prop); ok {
				want[indexEntryKey(id, prop, v, rec.PartitionKey, rec.RowKey)] = true
			}
			return true
		})
		if err != nil {
			return err
		}
		prefix := indexEntries(id, prop)
		var bad string
		err = tx.btx.AscendRange("", prefix, prefix+"\xff", func(k, _ string) bool {
			if !want[k] {
				bad = k
				return false
			}
			delete(want, k)
			return true
		})
		if err != nil {
			return err
		}
		for k := range want {
			bad = k
		}
		if bad != "" {
			pk, rk := splitIndexEntry(bad)
			return fmt.Errorf("check index %s of %s at (%q, %q): %w", prop, table, pk, rk, ErrIndexInconsistent)
		}
	}
	return nil
}
