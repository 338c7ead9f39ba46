package core_test

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/model"
)

// sizeFixture is a store with table things: twelve entities and the record of a
// thirteenth, deleted, which the change feed keeps.
func sizeFixture(t *testing.T) *core.Store {
	t.Helper()
	s, err := core.Open(core.Options{DeletionRetention: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	ops := []core.Op{{Kind: core.OpInsert, Entity: entity("x", "gone")}, {Kind: core.OpDelete, Entity: entity("x", "gone")}}
	for i := range 12 {
		ops = append(ops, core.Op{Kind: core.OpInsert, Entity: entity(fmt.Sprint(i%4), fmt.Sprint(i))})
	}
	err = s.Update(func(tx *core.Tx) error {
		if _, err := tx.CreateTable("things"); err != nil {
			return err
		}
		for _, op := range ops {
			if _, err := tx.Apply("things", op); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestStore_Records(t *testing.T) {
	s := sizeFixture(t)
	n, err := s.Records()
	// 12 entities, 1 deletion record, the table record, the clock and the store id
	if err != nil || n != 16 {
		t.Fatalf("Records = %d, %v; want 16", n, err)
	}
	s.Close()
	if _, err := s.Records(); !errors.Is(err, core.ErrStoreClosed) {
		t.Fatalf("closed: %v", err)
	}
}

func TestStore_Bytes(t *testing.T) {
	s := sizeFixture(t)
	small, err := s.Bytes()
	if err != nil || small <= 0 {
		t.Fatalf("Bytes = %d, %v", small, err)
	}
	big := model.Property{Name: "Blob", Value: model.BinaryValue(make([]byte, 60000))}
	if _, err := s.Apply("things", core.Op{Kind: core.OpInsert, Entity: entity("e", "0", big)}); err != nil {
		t.Fatal(err)
	}
	if n, err := s.Bytes(); err != nil || n < small+60000 {
		t.Fatalf("Bytes after a 60,000-byte entity = %d, %v; was %d", n, err, small)
	}
	s.Close()
	if _, err := s.Bytes(); !errors.Is(err, core.ErrStoreClosed) {
		t.Fatalf("closed: %v", err)
	}
}
