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
	moved := exportAll(t, src, r, 100)
	var f core.FeedState
	if err := src.View(func(tx *core.Tx) (err error) { f, err = tx.FeedState("things"); return err }); err != nil {
		t.Fatal(err)
	}
	err = dst.Update(func(tx *core.Tx) error {
		if err := tx.Import("things", moved); err != nil || !adopt {
			return err
		}
		return tx.AdoptFeed("things", f)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

func TestTx_AdoptFeed(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		src := moveFixture(t)
		_, cp, err := feedAfter(src, core.Checkpoint{})
		if err != nil {
			t.Fatal(err)
		}
		// after the reader's checkpoint: c/0 changes, then the range [c, ∞) moves
		if _, err := src.Apply("things", core.Op{Kind: core.OpMerge, Entity: entity("c", "0")}); err != nil {
			t.Fatal(err)
		}
		// the source's latest write is outside the range moved: its clock is ahead of every record moved
		below, err := src.Apply("things", core.Op{Kind: core.OpMerge, Entity: entity("a", "0")})
		if err != nil {
			t.Fatal(err)
		}
		dst := moveTo(t, src, partitionsFrom("c"), true)
		keys, _, err := feedAfter(dst, cp)
		if err != nil || fmt.Sprint(keys) != "[c/0]" {
			t.Fatalf("the source's checkpoint in the new store: %v, %v; want [c/0]", keys, err)
		}
		e, err := dst.Apply("things", core.Op{Kind: core.OpInsert, Entity: entity("d", "new")})
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
		src := moveFixture(t)
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
		if _, err := src.Apply("things", core.Op{Kind: core.OpInsert, Entity: entity("d", "1")}); err != nil {
			t.Fatal(err)
		}
		if _, _, err := feedAfter(moveTo(t, src, partitionsFrom("c"), true), cp); !errors.Is(err, core.ErrTableReplaced) {
			t.Fatalf("a checkpoint before the table's deletion: %v, want ErrTableReplaced", err)
		}
	})
}

func TestStore_Bytes(t *testing.T) {
	s := moveFixture(t)
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
