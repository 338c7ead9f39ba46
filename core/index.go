package core

import (
	"errors"
	"fmt"
	"strings"
)

// ErrIndexNotFound means a table has no index on the property named.
var ErrIndexNotFound = errors.New("index does not exist")

// IndexSpec names a secondary index: a table and one of its custom properties.
type IndexSpec struct {
	Table    string
	Property string
}

// CreateIndex declares a secondary index on a custom property of a table and builds it
// from the table's entities, in this transaction. Declaring an index that exists does
// nothing. The property must be a valid custom property name (the keys are already
// ordered, and the Timestamp is not indexed).
func (tx *Tx) CreateIndex(table, prop string) error {
	if _, err := tx.Table(table); err != nil {
		return err
	}
	if err := ValidatePropertyName(prop); err != nil {
		return err
	}
	id := tableID(table)
	if _, ok, err := tx.get(indexDeclKey(id, prop)); err != nil || ok {
		return err
	}
	if err := tx.set(indexDeclKey(id, prop), ""); err != nil {
		return err
	}
	var entries []string // buntdb takes no write while a read iterates
	err := tx.ScanRecords(table, WholeTable, func(rec *Record) bool {
		if v, ok := rec.Lookup(prop); ok {
			entries = append(entries, indexEntryKey(id, prop, v, rec.PartitionKey, rec.RowKey))
		}
		return true
	})
	if err != nil {
		return err
	}
	for _, k := range entries {
		if err := tx.set(k, ""); err != nil {
			return err
		}
	}
	return nil
}

// DropIndex removes a table's index on prop and every entry of it, or reports
// ErrIndexNotFound.
func (tx *Tx) DropIndex(table, prop string) error {
	if _, err := tx.Table(table); err != nil {
		return err
	}
	id := tableID(table)
	if _, ok, err := tx.get(indexDeclKey(id, prop)); err != nil || !ok {
		return orErr(err, ErrIndexNotFound)
	}
	if err := tx.deletePrefix(indexEntries(id, prop)); err != nil {
		return err
	}
	return tx.del(indexDeclKey(id, prop))
}

// Indexes returns the properties a table has indexes on, in ordinal order.
func (tx *Tx) Indexes(table string) ([]string, error) {
	if _, err := tx.Table(table); err != nil {
		return nil, err
	}
	return tx.indexed(tableID(table))
}

// HasIndex reports whether a table has an index on prop.
func (tx *Tx) HasIndex(table, prop string) bool {
	_, ok, err := tx.get(indexDeclKey(tableID(table), prop))
	return ok && err == nil
}

// indexed returns the indexed properties of table id.
func (tx *Tx) indexed(id string) ([]string, error) {
	prefix := tableIndexDecls(id)
	var props []string
	err := tx.btx.AscendRange("", prefix, prefix+"\xff", func(k, _ string) bool {
		props = append(props, strings.TrimPrefix(k, prefix))
		return true
	})
	return props, err
}

// reindex updates the index entries of entity (pk, rk) of table id from its old
// version to its next one (either nil when there is none), writing only the entries
// that change.
func (tx *Tx) reindex(id, pk, rk string, old, next *Entity) error {
	props, err := tx.indexed(id)
	if err != nil || len(props) == 0 {
		return err
	}
	for _, prop := range props {
		var from, to string
		if v, ok := indexedValue(old, prop); ok {
			from = indexEntryKey(id, prop, v, pk, rk)
		}
		if v, ok := indexedValue(next, prop); ok {
			to = indexEntryKey(id, prop, v, pk, rk)
		}
		if from == to {
			continue
		}
		if from != "" {
			if err := tx.del(from); err != nil {
				return err
			}
		}
		if to != "" {
			if err := tx.set(to, ""); err != nil {
				return err
			}
		}
	}
	return nil
}

// createDeclaredIndexes declares the store's configured indexes (Options.Indexes) on
// table, as it is created.
func (tx *Tx) createDeclaredIndexes(table string) error {
	for _, spec := range tx.store.opts.Indexes {
		if tableID(spec.Table) == tableID(table) {
			if err := tx.CreateIndex(table, spec.Property); err != nil {
				return err
			}
		}
	}
	return nil
}

// ensureIndexes declares the configured indexes on the tables that exist, as the store
// opens; an index already declared is left as it is.
func (s *Store) ensureIndexes() error {
	if len(s.opts.Indexes) == 0 {
		return nil
	}
	for _, spec := range s.opts.Indexes {
		if err := errors.Join(ValidateTableName(spec.Table), ValidatePropertyName(spec.Property)); err != nil {
			return fmt.Errorf("index %s.%s: %w", spec.Table, spec.Property, err)
		}
	}
	return s.Update(func(tx *Tx) error {
		for _, spec := range s.opts.Indexes {
			err := tx.CreateIndex(spec.Table, spec.Property)
			if err != nil && !errors.Is(err, ErrTableNotFound) {
				return err
			}
		}
		return nil
	})
}

// indexedValue returns e's value of prop, if e is not nil and has it.
func indexedValue(e *Entity, prop string) (Value, bool) {
	if e == nil {
		return Value{}, false
	}
	return e.Get(prop)
}
