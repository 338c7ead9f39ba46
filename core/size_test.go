package core_test

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/model"
)

// sizeFixture is a store with table T: partitions a, b, c, d of three entities each, and
// one deleted entity (c, gone) whose record the change feed keeps.
func sizeFixture(t *testing.T) *core.Store {
	t.Helper()
	s, err := core.Open(core.Options{DeletionRetention: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	if _, err := s.CreateTable("Things"); err != nil {
		t.Fatal(err)
	}
	for _, pk := range []string{"a", "b", "c", "d"} {
		for i := range 3 {
			if _, err := s.Apply("things", core.Op{Kind: core.OpInsert, Entity: entity(pk, fmt.Sprint(i))}); err != nil {
				t.Fatal(err)
			}
		}
	}
	if _, err := s.Apply("things", core.Op{Kind: core.OpInsert, Entity: entity("c", "gone")}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Apply("things", core.Op{Kind: core.OpDelete, Entity: entity("c", "gone")}); err != nil {
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
