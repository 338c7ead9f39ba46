package replica_test

import (
	"errors"
	"testing"
	"time"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/backend/outbox"
	"github.com/tabletopdb/tabletop/core/replica"
)

// tab opens a store as a browser tab does: its change sets in an outbox, with Hooks.
func tab(t *testing.T, hooks core.Hooks) (*core.Store, *outbox.Backend) {
	t.Helper()
	box := outbox.New(nil, nil)
	clk := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	s, err := core.Open(core.Options{Backend: box, Now: func() time.Time { return clk }, Hooks: hooks})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, box
}

// follow applies to s the change sets box holds, as a tab applies another's.
func follow(t *testing.T, s *core.Store, box *outbox.Backend) {
	t.Helper()
	for _, r := range box.Take() {
		if r.Kind != outbox.ChangeSet {
			continue
		}
		if err := s.ApplyChangeSet(r.Data); err != nil {
			t.Fatal(err)
		}
	}
}

// TestHooks: every local write of a tracked table is queued, whatever the spelling of its
// name and however the store learnt of the tracking; a store without Hooks runs no
// replica code on a write, and refuses Track.
func TestHooks(t *testing.T) {
	t.Run("Tracked", func(t *testing.T) {
		s := newStore(t, core.Options{Hooks: replica.Hooks{}}, "ttt")
		insert(t, s, "TTT", rent("p", "before", "x")) // the table is not tracked
		update(t, s, func(tx *core.Tx) error { return replica.Track(tx, "ttt") })
		insert(t, s, "TTT", rent("p", "after", "y")) // the same table by another spelling
		if got := pendingOf(t, s); len(got) != 2 || got[0].RowKey != "after" || got[1].RowKey != "before" {
			t.Fatalf("outbox = %+v, want the entity Track queued and the insert after it", got)
		}
	})
	t.Run("TrackedByChangeSet", func(t *testing.T) {
		a, boxA := tab(t, replica.Hooks{})
		b, boxB := tab(t, replica.Hooks{})
		if _, err := a.CreateTable("ttt"); err != nil {
			t.Fatal(err)
		}
		follow(t, b, boxA)
		insert(t, b, "ttt", rent("p", "before", "x")) // b: the table is not tracked
		update(t, a, func(tx *core.Tx) error { return replica.Track(tx, "ttt") })
		follow(t, b, boxA)
		insert(t, b, "ttt", rent("p", "after", "y"))
		boxB.Take()
		if got := pendingOf(t, b); len(got) != 1 || got[0].RowKey != "after" {
			t.Fatalf("outbox = %+v, want the insert after the change set that tracks the table", got)
		}
	})
	t.Run("NoHooks", func(t *testing.T) {
		// The native server's and the edge's stores: a table that a replica's change set
		// tracks queues nothing there.
		a, boxA := tab(t, replica.Hooks{})
		b, _ := tab(t, nil)
		if _, err := a.CreateTable("ttt"); err != nil {
			t.Fatal(err)
		}
		update(t, a, func(tx *core.Tx) error { return replica.Track(tx, "ttt") })
		follow(t, b, boxA)
		insert(t, b, "ttt", rent("p", "r", "x"))
		if got := pendingOf(t, b); len(got) != 0 {
			t.Fatalf("outbox = %+v, want nothing queued on a store without Hooks", got)
		}
		if err := b.Update(func(tx *core.Tx) error { return replica.Track(tx, "ttt") }); !errors.Is(err, replica.ErrNoHooks) {
			t.Fatalf("Track: %v, want ErrNoHooks", err)
		}
	})
	t.Run("DropTable", func(t *testing.T) {
		s := newStore(t, core.Options{Hooks: replica.Hooks{}}, "ttt")
		update(t, s, func(tx *core.Tx) error { return replica.Track(tx, "ttt") })
		insert(t, s, "ttt", rent("p", "r", "x"))
		update(t, s, func(tx *core.Tx) error { return tx.DeleteTable("ttt") })
		if _, err := s.CreateTable("ttt"); err != nil {
			t.Fatal(err)
		}
		err := s.View(func(tx *core.Tx) error { _, err := replica.Checkpoint(tx, "ttt"); return err })
		if !errors.Is(err, replica.ErrNotTracked) {
			t.Fatalf("a table created again after a delete: %v, want ErrNotTracked", err)
		}
	})
}
