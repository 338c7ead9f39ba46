package core

import (
	"errors"
	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/core/stored"
	"reflect"
	"testing"
)

func TestTx_GetRecord(t *testing.T) {
	s, err := Open(Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.CreateTable("People"); err != nil {
		t.Fatal(err)
	}
	e := &model.Entity{PartitionKey: "p", RowKey: "r", Properties: []model.Property{{Name: "n", Value: model.Int32Value(5)}, {Name: "x", Value: model.DoubleValue(5)}}}
	kept, err := s.Apply("people", Op{Kind: OpInsert, Entity: e})
	if err != nil {
		t.Fatal(err)
	}
	t.Run("OK", func(t *testing.T) {
		rec, err := s.GetRecord("PEOPLE", "p", "r") // table names are case-insensitive
		if err != nil {
			t.Fatal(err)
		}
		got, err := rec.Entity()
		if err != nil || !reflect.DeepEqual(got, kept) {
			t.Fatalf("GetRecord = %+v, %v; want %+v", got, err, kept)
		}
		if viaGet, err := s.Get("People", "p", "r"); err != nil || !reflect.DeepEqual(viaGet, kept) {
			t.Fatalf("Get = %+v, %v; want %+v", viaGet, err, kept)
		}
		// The browser's point read: the transaction and its Tx cost two allocations
		// (buntdb's Tx and the item it looks up) and the key one; the Tx stays on the stack.
		if n := testing.AllocsPerRun(100, func() { s.GetRecord("People", "p", "r") }); n > 3 {
			t.Fatalf("GetRecord: %v allocations, want at most 3", n)
		}
	})
	t.Run("ErrEntityNotFound", func(t *testing.T) {
		if _, err := s.GetRecord("People", "p", "missing"); !errors.Is(err, ErrEntityNotFound) {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("ErrTableNotFound", func(t *testing.T) {
		for _, table := range []string{"Absent", "bad\x00name", ""} {
			if _, err := s.GetRecord(table, "p", "r"); !errors.Is(err, ErrTableNotFound) {
				t.Fatalf("%q: err = %v", table, err)
			}
		}
		if _, err := s.CreateTable("Gone"); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Apply("Gone", Op{Kind: OpInsert, Entity: &model.Entity{PartitionKey: "p", RowKey: "r"}}); err != nil {
			t.Fatal(err)
		}
		if err := s.DeleteTable("Gone"); err != nil {
			t.Fatal(err)
		}
		if _, err := s.GetRecord("Gone", "p", "r"); !errors.Is(err, ErrTableNotFound) {
			t.Fatalf("deleted table: err = %v", err)
		}
	})
	t.Run("ErrCorrupt", func(t *testing.T) {
		if err := s.Update(func(tx *Tx) error { return tx.set(stored.EntityKey("people", "p", "bad"), "\xff") }); err != nil {
			t.Fatal(err)
		}
		if _, err := s.GetRecord("People", "p", "bad"); !errors.Is(err, stored.ErrCorrupt) {
			t.Fatalf("GetRecord: err = %v", err)
		}
		if _, err := s.Get("People", "p", "bad"); !errors.Is(err, stored.ErrCorrupt) {
			t.Fatalf("Get: err = %v", err)
		}
	})
	t.Run("ErrStoreClosed", func(t *testing.T) {
		closed, err := Open(Options{})
		if err != nil {
			t.Fatal(err)
		}
		closed.Close()
		if _, err := closed.GetRecord("People", "p", "r"); !errors.Is(err, ErrStoreClosed) {
			t.Fatalf("err = %v", err)
		}
	})
}
