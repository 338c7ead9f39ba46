package replica_test

import (
	"testing"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/core/stored"
)

// newStore opens a store with opts and creates tables.
func newStore(t testing.TB, opts core.Options, tables ...string) *core.Store {
	t.Helper()
	s, err := core.Open(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	for _, name := range tables {
		if _, err := s.CreateTable(name); err != nil {
			t.Fatalf("create table %q: %v", name, err)
		}
	}
	return s
}

// insert inserts e into table.
func insert(t testing.TB, s *core.Store, table string, e *model.Entity) *model.Entity {
	t.Helper()
	out, err := s.Apply(table, core.Op{Kind: core.OpInsert, Entity: e})
	if err != nil {
		t.Fatalf("insert (%q, %q): %v", e.PartitionKey, e.RowKey, err)
	}
	return out
}

// scanAll lists the entities of table.
func scanAll(t testing.TB, s *core.Store, table string) []*model.Entity {
	t.Helper()
	var out []*model.Entity
	err := s.View(func(tx *core.Tx) error {
		return tx.Scan(table, stored.WholeTable, func(e *model.Entity) bool {
			out = append(out, e)
			return true
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
