package core

import (
	"errors"
	"fmt"
	"strings"

	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/core/stored"
	"github.com/tidwall/buntdb"
)

// ErrIndexNotFound means a table has no index on the property named.
var ErrIndexNotFound = errors.New("index does not exist")

// IndexSpec names a secondary index: a table and one of its custom properties.
type IndexSpec struct {
	Table    string
	Property string
}

// An index is a buntdb index over the entity keys of one table, ordered by the
// property's value (stored.IndexLess): it holds the entities themselves, so a read needs
// no second lookup, and buntdb keeps it in the same transaction as every write. Only
// its declaration (stored.IndexDeclKey) is stored; the index is built from the entities
// when it is declared and again when the store opens, so there is nothing of it to log,
// replay or get out of step after a crash.

// indexName is the name of the buntdb index on prop of table id: its declaration's key.
func indexName(id, prop string) string { return stored.IndexDeclKey(id, prop) }

// indexPattern matches the keys of table id's entities.
func indexPattern(id string) string { return stored.TableEntities(id) + "*" }

// CreateIndex declares a secondary index on a custom property of a table and builds it
// from the table's entities, in this transaction. Declaring an index that exists does
// nothing. The property must be a valid custom property name (the keys are already
// ordered, and the Timestamp is not indexed).
func (tx *Tx) CreateIndex(table, prop string) error {
	if _, err := tx.Table(table); err != nil {
		return err
	}
	if err := model.ValidatePropertyName(prop); err != nil {
		return err
	}
	id := stored.TableID(table)
	if _, ok, err := tx.get(stored.IndexDeclKey(id, prop)); err != nil || ok {
		return err
	}
	if err := tx.set(stored.IndexDeclKey(id, prop), ""); err != nil {
		return err
	}
	return tx.btx.CreateIndex(indexName(id, prop), indexPattern(id), stored.IndexLess(prop))
}

// DropIndex removes a table's index on prop, or reports ErrIndexNotFound.
func (tx *Tx) DropIndex(table, prop string) error {
	if _, err := tx.Table(table); err != nil {
		return err
	}
	return tx.dropIndex(stored.TableID(table), prop)
}

func (tx *Tx) dropIndex(id, prop string) error {
	if _, ok, err := tx.get(stored.IndexDeclKey(id, prop)); err != nil || !ok {
		return orErr(err, ErrIndexNotFound)
	}
	if err := tx.del(stored.IndexDeclKey(id, prop)); err != nil {
		return err
	}
	err := tx.btx.DropIndex(indexName(id, prop))
	if errors.Is(err, buntdb.ErrNotFound) {
		return nil
	}
	return err
}

// dropIndexes removes every index of table id, as the table is deleted.
func (tx *Tx) dropIndexes(id string) error {
	props, err := tx.indexed(id)
	if err != nil {
		return err
	}
	for _, prop := range props {
		if err := tx.dropIndex(id, prop); err != nil {
			return err
		}
	}
	return nil
}

// Indexes returns the properties a table has indexes on, in ordinal order.
func (tx *Tx) Indexes(table string) ([]string, error) {
	if _, err := tx.Table(table); err != nil {
		return nil, err
	}
	return tx.indexed(stored.TableID(table))
}

// HasIndex reports whether a table has an index on prop. A partial store reports false
// for a declaration whose key range is not resident: Indexes says so (ErrNeedRange).
func (tx *Tx) HasIndex(table, prop string) bool {
	_, ok, err := tx.get(stored.IndexDeclKey(stored.TableID(table), prop))
	return ok && err == nil
}

// indexed returns the indexed properties of table id.
func (tx *Tx) indexed(id string) ([]string, error) {
	prefix := stored.TableIndexDecls(id)
	var props []string
	err := tx.ascend(prefix, prefix+"\xff", func(k, _ string) bool {
		props = append(props, strings.TrimPrefix(k, prefix))
		return true
	})
	return props, err
}

// createDeclaredIndexes declares the store's configured indexes (Options.Indexes) on
// table, as it is created.
func (tx *Tx) createDeclaredIndexes(table string) error {
	for _, spec := range tx.store.opts.Indexes {
		if stored.TableID(spec.Table) == stored.TableID(table) {
			if err := tx.CreateIndex(table, spec.Property); err != nil {
				return err
			}
		}
	}
	return nil
}

// restoreIndexes builds the declared indexes that are not built yet (as the store opens,
// as a partial store loads a range), from the entities loaded; buntdb adds the entities
// loaded later to them.
func (s *Store) restoreIndexes() error {
	var names, patterns, props []string
	err := s.db.View(func(btx *buntdb.Tx) error {
		return btx.AscendRange("", stored.IndexDeclPrefix, "i\x01", func(k, _ string) bool {
			id, prop, ok := strings.Cut(strings.TrimPrefix(k, stored.IndexDeclPrefix), stored.Sep)
			if ok {
				names, patterns, props = append(names, indexName(id, prop)), append(patterns, indexPattern(id)), append(props, prop)
			}
			return true
		})
	})
	if err != nil {
		return mapClosed(err)
	}
	// An index already built answers ErrIndexExists (asking buntdb for the list of built
	// indexes instead links a generic string sort into the wasm).
	for i := range names {
		err := s.db.CreateIndex(names[i], patterns[i], stored.IndexLess(props[i]))
		if errors.Is(err, buntdb.ErrIndexExists) {
			continue
		}
		if err != nil {
			return fmt.Errorf("build index %q: %w", names[i], mapClosed(err))
		}
	}
	return nil
}

// ensureIndexes declares the configured indexes on the tables that exist, as the store
// opens; an index already declared is left as it is.
func (s *Store) ensureIndexes() error {
	for _, spec := range s.opts.Indexes {
		if err := errors.Join(model.ValidateTableName(spec.Table), model.ValidatePropertyName(spec.Property)); err != nil {
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
