package core_test

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/core/stored"
)

// moveFixture is a store with table T: partitions a, b, c, d of three entities each, and
// one deleted entity (c, gone) whose record the change feed keeps.
func moveFixture(t *testing.T) *core.Store {
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

// partitionsFrom is the key range of partition pk and those after it.
func partitionsFrom(pk string) stored.KeyRange {
	return stored.KeyRange{From: stored.PartitionStart(pk), To: stored.TableEnd}
}

// exportAll exports range r of T from s in chunks of n records, resuming after each chunk.
func exportAll(t *testing.T, s *core.Store, r stored.KeyRange, n int) []core.Moved {
	t.Helper()
	var all []core.Moved
	var after *core.Moved
	for {
		var chunk []core.Moved
		err := s.View(func(tx *core.Tx) error {
			return tx.Export("things", r, after, func(m core.Moved) bool {
				chunk = append(chunk, m)
				return len(chunk) < n
			})
		})
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, chunk...)
		if len(chunk) < n {
			return all
		}
		after = &chunk[len(chunk)-1]
	}
}

func keysOf(t *testing.T, s *core.Store) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := s.View(func(tx *core.Tx) error {
		return tx.Scan("things", stored.WholeTable, func(e *model.Entity) bool {
			out[e.PartitionKey+"/"+e.RowKey] = e.ETag()
			return true
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestTx_Export(t *testing.T) {
	s := moveFixture(t)
	t.Run("OK", func(t *testing.T) {
		for _, n := range []int{1, 2, 5, 100} {
			got := exportAll(t, s, stored.KeyRange{From: stored.PartitionStart("b"), To: stored.PartitionStart("d")}, n)
			var kinds string
			for _, m := range got {
				kinds += string(m.Kind)
				if m.Kind != core.MovedTable && (m.PartitionKey < "b" || m.PartitionKey >= "d") {
					t.Fatalf("n=%d: exported %s/%s outside [b, d)", n, m.PartitionKey, m.RowKey)
				}
			}
			if kinds != "teeeeeed" {
				t.Fatalf("n=%d: kinds %q, want the table, 6 entities, 1 deletion", n, kinds)
			}
		}
	})
	t.Run("ErrTableNotFound", func(t *testing.T) {
		err := s.View(func(tx *core.Tx) error {
			return tx.Export("nope", stored.WholeTable, nil, func(core.Moved) bool { return true })
		})
		if !errors.Is(err, core.ErrTableNotFound) {
			t.Fatalf("err = %v", err)
		}
	})
}

func TestTx_Import(t *testing.T) {
	src := moveFixture(t)
	moved := exportAll(t, src, partitionsFrom("c"), 3)
	t.Run("OK", func(t *testing.T) {
		// dst's wall clock is behind the source's: the import must move its clock on.
		dst, err := core.Open(core.Options{Now: func() time.Time { return time.Date(2001, 1, 1, 0, 0, 0, 0, time.UTC) }})
		if err != nil {
			t.Fatal(err)
		}
		defer dst.Close()
		if err := dst.Update(func(tx *core.Tx) error { return tx.Import("things", moved) }); err != nil {
			t.Fatal(err)
		}
		want, got := keysOf(t, src), keysOf(t, dst)
		if len(got) != 6 {
			t.Fatalf("imported %d entities, want 6", len(got))
		}
		for k, etag := range got {
			if want[k] != etag {
				t.Fatalf("%s: ETag %s, want %s as in the source", k, etag, want[k])
			}
		}
		e, err := dst.Apply("things", core.Op{Kind: core.OpMerge, Entity: entity("d", "2")})
		if err != nil {
			t.Fatal(err)
		}
		old, _ := src.Get("things", "d", "2")
		if e.Timestamp <= old.Timestamp {
			t.Fatalf("a write after the import reused a Timestamp: %s", e.ETag())
		}
	})
	t.Run("ErrTableNotFound", func(t *testing.T) {
		dst := openMem(t)
		err := dst.Update(func(tx *core.Tx) error { return tx.Import("things", moved[1:]) })
		if !errors.Is(err, core.ErrTableNotFound) {
			t.Fatalf("err = %v", err)
		}
	})
}

func TestTx_Evict(t *testing.T) {
	s := moveFixture(t)
	var n int
	err := s.Update(func(tx *core.Tx) (err error) {
		n, err = tx.Evict("things", partitionsFrom("c"))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if n != 7 {
		t.Fatalf("evicted %d records, want 6 entities and 1 deletion record", n)
	}
	left := keysOf(t, s)
	if len(left) != 6 || left["a/0"] == "" || left["b/2"] == "" {
		t.Fatalf("left %v, want partitions a and b", left)
	}
	var deletions int
	err = s.View(func(tx *core.Tx) error {
		return tx.Changes("things", core.Checkpoint{}, func(c core.Change) bool {
			if c.Deleted() {
				deletions++
			}
			return true
		})
	})
	if err != nil || deletions != 0 {
		t.Fatalf("the change feed has %d deletions (%v): an eviction is not a deletion", deletions, err)
	}
	if err := s.Update(func(tx *core.Tx) error { return tx.Forget("things") }); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Get("things", "a", "0"); !errors.Is(err, core.ErrTableNotFound) {
		t.Fatalf("after Forget: %v", err)
	}
}

func TestStore_Records(t *testing.T) {
	s := moveFixture(t)
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
