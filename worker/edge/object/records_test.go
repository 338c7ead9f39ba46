package object

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/core/stored"
)

// thing is entity (pk, rk) with props.
func thing(pk, rk string, props ...model.Property) *model.Entity {
	return &model.Entity{PartitionKey: pk, RowKey: rk, Properties: props}
}

// recordsFixture is a store with table T: partitions a, b, c, d of three entities each, and
// one deleted entity (c, gone) whose record the change feed keeps.
func recordsFixture(t *testing.T) *core.Store {
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
			if _, err := s.Apply("things", core.Op{Kind: core.OpInsert, Entity: thing(pk, fmt.Sprint(i))}); err != nil {
				t.Fatal(err)
			}
		}
	}
	if _, err := s.Apply("things", core.Op{Kind: core.OpInsert, Entity: thing("c", "gone")}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Apply("things", core.Op{Kind: core.OpDelete, Entity: thing("c", "gone")}); err != nil {
		t.Fatal(err)
	}
	return s
}

// partitionsFrom is the key range of partition pk and those after it.
func partitionsFrom(pk string) stored.KeyRange {
	return stored.KeyRange{From: stored.PartitionStart(pk), To: stored.TableEnd}
}

// exportAll exports range r of T from s in chunks of n records, resuming after each chunk.
func exportAll(t *testing.T, s *core.Store, r stored.KeyRange, n int) []moved {
	t.Helper()
	var all []moved
	var after *moved
	for {
		var chunk []moved
		err := s.View(func(tx *core.Tx) error {
			return exportRecords(tx, "things", r, after, func(m moved) bool {
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

func TestExportRecords(t *testing.T) {
	s := recordsFixture(t)
	t.Run("OK", func(t *testing.T) {
		for _, n := range []int{1, 2, 5, 100} {
			got := exportAll(t, s, stored.KeyRange{From: stored.PartitionStart("b"), To: stored.PartitionStart("d")}, n)
			var kinds string
			for _, m := range got {
				kinds += string(m.kind)
				if m.kind != movedTable && (m.partitionKey < "b" || m.partitionKey >= "d") {
					t.Fatalf("n=%d: exported %s/%s outside [b, d)", n, m.partitionKey, m.rowKey)
				}
			}
			if kinds != "teeeeeed" {
				t.Fatalf("n=%d: kinds %q, want the table, 6 entities, 1 deletion", n, kinds)
			}
		}
	})
	t.Run("ErrTableNotFound", func(t *testing.T) {
		err := s.View(func(tx *core.Tx) error {
			return exportRecords(tx, "nope", stored.WholeTable, nil, func(moved) bool { return true })
		})
		if !errors.Is(err, core.ErrTableNotFound) {
			t.Fatalf("err = %v", err)
		}
	})
}

func TestImportRecords(t *testing.T) {
	src := recordsFixture(t)
	recs := exportAll(t, src, partitionsFrom("c"), 3)
	t.Run("OK", func(t *testing.T) {
		// dst's wall clock is behind the source's: the import must move its clock on.
		dst, err := core.Open(core.Options{Now: func() time.Time { return time.Date(2001, 1, 1, 0, 0, 0, 0, time.UTC) }})
		if err != nil {
			t.Fatal(err)
		}
		defer dst.Close()
		if err := dst.Update(func(tx *core.Tx) error { return importRecords(tx, "things", recs) }); err != nil {
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
		e, err := dst.Apply("things", core.Op{Kind: core.OpMerge, Entity: thing("d", "2")})
		if err != nil {
			t.Fatal(err)
		}
		old, _ := src.Get("things", "d", "2")
		if e.Timestamp <= old.Timestamp {
			t.Fatalf("a write after the import reused a Timestamp: %s", e.ETag())
		}
	})
	t.Run("ErrTableNotFound", func(t *testing.T) {
		dst, err := core.Open(core.Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer dst.Close()
		err = dst.Update(func(tx *core.Tx) error { return importRecords(tx, "things", recs[1:]) })
		if !errors.Is(err, core.ErrTableNotFound) {
			t.Fatalf("err = %v", err)
		}
	})
}

func TestEvictRecords(t *testing.T) {
	s := recordsFixture(t)
	var n int
	err := s.Update(func(tx *core.Tx) (err error) {
		n, err = evictRecords(tx, "things", partitionsFrom("c"))
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
	if err := s.Update(func(tx *core.Tx) error { return forgetTable(tx, "things") }); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Get("things", "a", "0"); !errors.Is(err, core.ErrTableNotFound) {
		t.Fatalf("after forgetTable: %v", err)
	}
}

// feedAfter lists the keys of the changes of T in s after since ("-" before a deletion's).
func feedAfter(s *core.Store, since core.Checkpoint) (keys []string, last core.Checkpoint, err error) {
	last = since
	err = s.View(func(tx *core.Tx) error {
		return tx.Changes("things", since, func(c core.Change) bool {
			k := c.PartitionKey + "/" + c.RowKey
			if c.Deleted() {
				k = "-" + k
			}
			keys, last = append(keys, k), c.Checkpoint
			return true
		})
	})
	return keys, last, err
}

// moveTo copies range r of T from src to a new store dst whose wall clock is years behind,
// adopting src's feed state when adopt is set.
func moveTo(t *testing.T, src *core.Store, r stored.KeyRange, adopt bool) *core.Store {
	t.Helper()
	dst, err := core.Open(core.Options{DeletionRetention: time.Hour, Now: func() time.Time { return time.Date(2001, 1, 1, 0, 0, 0, 0, time.UTC) }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { dst.Close() })
	recs := exportAll(t, src, r, 100)
	var f core.FeedState
	if err := src.View(func(tx *core.Tx) (err error) { f, err = tx.FeedState("things"); return err }); err != nil {
		t.Fatal(err)
	}
	err = dst.Update(func(tx *core.Tx) error {
		if err := importRecords(tx, "things", recs); err != nil || !adopt {
			return err
		}
		return tx.AdoptFeed("things", f)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

func TestAdoptFeed_AfterMove(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		src := recordsFixture(t)
		_, cp, err := feedAfter(src, core.Checkpoint{})
		if err != nil {
			t.Fatal(err)
		}
		// after the reader's checkpoint: c/0 changes, then the range [c, ∞) moves
		if _, err := src.Apply("things", core.Op{Kind: core.OpMerge, Entity: thing("c", "0")}); err != nil {
			t.Fatal(err)
		}
		// the source's latest write is outside the range moved: its clock is ahead of every record moved
		below, err := src.Apply("things", core.Op{Kind: core.OpMerge, Entity: thing("a", "0")})
		if err != nil {
			t.Fatal(err)
		}
		dst := moveTo(t, src, partitionsFrom("c"), true)
		keys, _, err := feedAfter(dst, cp)
		if err != nil || fmt.Sprint(keys) != "[c/0]" {
			t.Fatalf("the source's checkpoint in the new store: %v, %v; want [c/0]", keys, err)
		}
		e, err := dst.Apply("things", core.Op{Kind: core.OpInsert, Entity: thing("d", "new")})
		if err != nil {
			t.Fatal(err)
		}
		if e.Timestamp <= below.Timestamp {
			t.Fatalf("a write after the move took %v, not after the source's clock %v", e.Timestamp, below.Timestamp)
		}
		if keys, _, err = feedAfter(dst, cp); err != nil || fmt.Sprint(keys) != "[c/0 d/new]" {
			t.Fatalf("after a write: %v, %v", keys, err)
		}
	})
	t.Run("ErrCheckpoint", func(t *testing.T) {
		src := recordsFixture(t)
		_, cp, err := feedAfter(src, core.Checkpoint{})
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := feedAfter(moveTo(t, src, partitionsFrom("c"), false), cp); !errors.Is(err, core.ErrCheckpointOtherStore) {
			t.Fatalf("without adopting the feed: %v, want ErrCheckpointOtherStore", err)
		}
		// the table deleted and created again after cp: cp is void in the new store too
		if err := src.DeleteTable("things"); err != nil {
			t.Fatal(err)
		}
		if _, err := src.CreateTable("things"); err != nil {
			t.Fatal(err)
		}
		if _, err := src.Apply("things", core.Op{Kind: core.OpInsert, Entity: thing("d", "1")}); err != nil {
			t.Fatal(err)
		}
		if _, _, err := feedAfter(moveTo(t, src, partitionsFrom("c"), true), cp); !errors.Is(err, core.ErrTableReplaced) {
			t.Fatalf("a checkpoint before the table's deletion: %v, want ErrTableReplaced", err)
		}
	})
}
