package core_test

import (
	"errors"
	"testing"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/model"
)

func openMem(t testing.TB) *core.Store {
	t.Helper()
	s, err := core.Open(core.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func entity(pk, rk string, props ...model.Property) *model.Entity {
	return &model.Entity{PartitionKey: pk, RowKey: rk, Properties: props}
}

func TestStore_Apply(t *testing.T) {
	s := openMem(t)
	if _, err := s.CreateTable("People"); err != nil {
		t.Fatal(err)
	}
	t.Run("OK", func(t *testing.T) {
		e, err := s.Apply("people", core.Op{Kind: core.OpInsert, Entity: entity("p", "1", model.Property{Name: "Age", Value: model.Int32Value(7)})})
		if err != nil {
			t.Fatal(err)
		}
		got, err := s.Get("PEOPLE", "p", "1")
		if err != nil {
			t.Fatal(err)
		}
		if got.ETag() != e.ETag() || got.Properties[0].Value != model.Int32Value(7) {
			t.Fatalf("got %+v want %+v", got, e)
		}
	})
	t.Run("ErrEntityExists", func(t *testing.T) {
		_, err := s.Apply("people", core.Op{Kind: core.OpInsert, Entity: entity("p", "1")})
		if !errors.Is(err, core.ErrEntityExists) {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("ErrTableNotFound", func(t *testing.T) {
		// A missing table is reported before an invalid entity, as inside a transaction.
		_, err := s.Apply("nosuch", core.Op{Kind: core.OpInsert, Entity: entity("p", "bad/key")})
		if !errors.Is(err, core.ErrTableNotFound) {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("ErrKeyInvalid", func(t *testing.T) {
		_, err := s.Apply("people", core.Op{Kind: core.OpInsert, Entity: entity("p", "bad/key")})
		if !errors.Is(err, model.ErrKeyInvalid) {
			t.Fatalf("err = %v", err)
		}
		if _, err := s.Get("people", "p", "bad/key"); !errors.Is(err, core.ErrEntityNotFound) {
			t.Fatalf("an invalid entity was stored: %v", err)
		}
	})
}
