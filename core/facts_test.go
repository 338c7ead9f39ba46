package core_test

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/backend/outbox"
)

// TestStore_Apply_tableFacts checks that what single writes remember of their table
// between transactions (that it exists, is not tracked for sync, holds no deletion
// records) is dropped by every write that changes it, so that no write acts on a stale
// fact.
func TestStore_Apply_tableFacts(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		s := syncStore(t, &clock{t: time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)}, "ttt")
		insert(t, s, "ttt", ent("p", "a"))
		insert(t, s, "ttt", ent("p", "b"))
		if got := describe(feed(t, s, "ttt", core.Checkpoint{})); !slices.Equal(got, []string{"p/a", "p/b"}) {
			t.Fatalf("feed = %v", got)
		}
	})
	t.Run("DeletionRecorded", func(t *testing.T) {
		s := syncStore(t, &clock{t: time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)}, "ttt")
		insert(t, s, "ttt", ent("p", "a")) // the table holds no deletion record
		del(t, s, "ttt", "p", "a")
		insert(t, s, "ttt", ent("p", "a")) // supersedes the record the delete wrote
		if got := describe(feed(t, s, "ttt", core.Checkpoint{})); !slices.Equal(got, []string{"p/a"}) {
			t.Fatalf("feed = %v, want the entity without its deletion", got)
		}
	})
	t.Run("Tracked", func(t *testing.T) {
		s := newRuleStore(t, core.Options{Replicas: true}, "ttt")
		insert(t, s, "TTT", rent("p", "before", "x")) // the table is not tracked
		update(t, s, func(tx *core.Tx) error { return tx.Track("ttt") })
		insert(t, s, "TTT", rent("p", "after", "y")) // the same table by another spelling
		if got := pendingOf(t, s); len(got) != 2 || got[0].RowKey != "after" || got[1].RowKey != "before" {
			t.Fatalf("outbox = %+v, want the entity Track queued and the insert after it", got)
		}
	})
	t.Run("TrackedByChangeSet", func(t *testing.T) {
		clk := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
		a, boxA := replica(t, 0, clk)
		b, boxB := replica(t, 0, clk)
		if _, err := a.CreateTable("ttt"); err != nil {
			t.Fatal(err)
		}
		applySets(t, b, boxA)
		insert(t, b, "ttt", rent("p", "before", "x")) // b: the table is not tracked
		update(t, a, func(tx *core.Tx) error { return tx.Track("ttt") })
		applySets(t, b, boxA)
		insert(t, b, "ttt", rent("p", "after", "y"))
		changeSets(boxB)
		if got := pendingOf(t, b); len(got) != 1 || got[0].RowKey != "after" {
			t.Fatalf("outbox = %+v, want the insert after the change set that tracks the table", got)
		}
	})
	t.Run("NoReplicas", func(t *testing.T) {
		// A store without Options.Replicas (the native server's, the edge's) runs no replica
		// code on a write: a table that a replica's change set tracks queues nothing there.
		clk := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
		a, boxA := replica(t, 0, clk)
		b, err := core.Open(core.Options{Backend: outbox.New(nil, nil)})
		if err != nil {
			t.Fatal(err)
		}
		defer b.Close()
		if _, err := a.CreateTable("ttt"); err != nil {
			t.Fatal(err)
		}
		update(t, a, func(tx *core.Tx) error { return tx.Track("ttt") })
		applySets(t, b, boxA)
		insert(t, b, "ttt", rent("p", "r", "x"))
		if got := pendingOf(t, b); len(got) != 0 {
			t.Fatalf("outbox = %+v, want nothing queued on a store without replicas", got)
		}
		if err := b.Update(func(tx *core.Tx) error { return tx.Track("ttt") }); !errors.Is(err, core.ErrNoReplicas) {
			t.Fatalf("Track: %v, want ErrNoReplicas", err)
		}
	})
	t.Run("ErrTableNameInvalid", func(t *testing.T) {
		s := newRuleStore(t, core.Options{}, "kkk")
		insert(t, s, "kkk", ent("p", "a"))
		// U+212A KELVIN SIGN folds to "k": the name is not the table's, nor a valid one.
		if _, err := s.Apply("\u212Akk", core.Op{Kind: core.OpInsert, Entity: ent("p", "b")}); !errors.Is(err, core.ErrTableNotFound) {
			t.Fatalf("insert under an invalid name: %v, want ErrTableNotFound", err)
		}
	})
	t.Run("ErrTableNotFound", func(t *testing.T) {
		s := newRuleStore(t, core.Options{}, "ttt")
		insert(t, s, "ttt", ent("p", "a")) // the table exists
		insert(t, s, "Ttt", ent("p", "b"))
		update(t, s, func(tx *core.Tx) error { return tx.DeleteTable("tTt") })
		for _, name := range []string{"ttt", "Ttt"} {
			if _, err := s.Apply(name, core.Op{Kind: core.OpInsert, Entity: ent("p", "c")}); !errors.Is(err, core.ErrTableNotFound) {
				t.Fatalf("insert into deleted table %s: %v, want ErrTableNotFound", name, err)
			}
			if _, err := s.ApplyBatch(name, []core.Op{{Kind: core.OpInsert, Entity: ent("p", "c")}}); !errors.Is(err, core.ErrTableNotFound) {
				t.Fatalf("batch into deleted table %s: %v, want ErrTableNotFound", name, err)
			}
		}
	})
}

// applySets applies the change sets box holds to s.
func applySets(t *testing.T, s *core.Store, box *outbox.Backend) {
	t.Helper()
	sets, _ := changeSets(box)
	for _, cs := range sets {
		if err := s.ApplyChangeSet(cs); err != nil {
			t.Fatal(err)
		}
	}
}
