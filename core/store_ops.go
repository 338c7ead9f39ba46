package core

import (
	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/core/stored"
)

// CreateTable creates a table in its own transaction.
func (s *Store) CreateTable(name string) (t *Table, err error) {
	err = s.Update(func(tx *Tx) error {
		t, err = tx.CreateTable(name)
		return err
	})
	return t, err
}

// DeleteTable deletes a table and its entities in its own transaction.
func (s *Store) DeleteTable(name string) error {
	return s.Update(func(tx *Tx) error { return tx.DeleteTable(name) })
}

// Get reads one entity. An entity of the table's point map is read with no transaction
// (see points.read), so that a point read does not queue behind writers for buntdb's lock.
func (s *Store) Get(table, pk, rk string) (e *model.Entity, err error) {
	if rec, ok := s.points.read(table, pk, rk); ok {
		return rec.Entity()
	}
	err = s.View(func(tx *Tx) error {
		e, err = tx.Get(table, pk, rk)
		return err
	})
	return e, err
}

// GetRecord reads one entity as stored; see Tx.GetRecord. An entity of the table's point
// map is read with no transaction (see points.read); otherwise it is View with one
// function known in advance, so that its Tx stays on the stack: the browser's point read,
// which this is, costs a few microseconds, of which the closures, defers and allocation
// of a View were a tenth.
func (s *Store) GetRecord(table, pk, rk string) (stored.Record, error) {
	if rec, ok := s.points.read(table, pk, rk); ok {
		return rec, rec.Check()
	}
	btx, err := s.db.Begin(false)
	if err != nil {
		return stored.Record{}, mapClosed(err)
	}
	defer btx.Rollback()
	tx := Tx{store: s, btx: btx}
	return tx.GetRecord(table, pk, rk)
}

// Apply performs one entity write in its own transaction; see Tx.Apply. The op is
// validated before the write lock is taken, and an insert's record encoded then too (see
// preparedInsert), so that writers hold the lock for less time; its errors keep
// Tx.Apply's order (a missing table first). The table's record is looked up but not
// decoded: a write needs only to know that the table exists.
func (s *Store) Apply(table string, op Op) (e *model.Entity, err error) {
	invalid := validateOp(op)
	var ins preparedInsert
	if invalid == nil && op.Kind == OpInsert {
		ins = prepareInsert(stored.TableID(table), op.Entity)
	}
	err = s.Update(func(tx *Tx) error {
		id, err := tx.useTable(table)
		if err != nil {
			return err
		}
		if invalid != nil {
			return invalid
		}
		if ins.out != nil {
			e, err = tx.insertPrepared(&ins)
		} else {
			e, err = tx.applyValid(id, op)
		}
		return err
	})
	return e, err
}
