package replica_test

import (
	"errors"
	"testing"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/core/replica"
	"github.com/tabletopdb/tabletop/core/wire"
)

// replicaStore opens a store with table "ttt" tracked for sync.
func replicaStore(t *testing.T) *core.Store {
	t.Helper()
	s := newStore(t, core.Options{Hooks: replica.Hooks{}}, "ttt")
	if err := s.Update(func(tx *core.Tx) error { return replica.Track(tx, "ttt") }); err != nil {
		t.Fatal(err)
	}
	return s
}

func rent(pk, rk, v string) *model.Entity {
	return &model.Entity{PartitionKey: pk, RowKey: rk, Properties: []model.Property{{Name: "v", Value: model.StringValue(v)}}}
}

// pendingOf lists table t's outbox.
func pendingOf(t *testing.T, s *core.Store) []replica.Pending {
	t.Helper()
	var out []replica.Pending
	if err := s.View(func(tx *core.Tx) (err error) { out, err = replica.Outbox(tx, "ttt", model.Key{}, 0); return err }); err != nil {
		t.Fatal(err)
	}
	return out
}

func update(t *testing.T, s *core.Store, fn func(tx *core.Tx) error) {
	t.Helper()
	if err := s.Update(fn); err != nil {
		t.Fatal(err)
	}
}

func TestTx_Track(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		s := newStore(t, core.Options{Hooks: replica.Hooks{}}, "ttt", "uuu")
		insert(t, s, "ttt", rent("p", "old", "x"))
		update(t, s, func(tx *core.Tx) error { return replica.Track(tx, "ttt") })
		insert(t, s, "ttt", rent("p", "new", "y"))
		insert(t, s, "uuu", rent("p", "other", "z"))
		if _, err := s.Apply("ttt", core.Op{Kind: core.OpDelete, Entity: rent("p", "old", "")}); err != nil {
			t.Fatal(err)
		}
		var n int
		s.View(func(tx *core.Tx) (err error) { n, err = replica.PendingCount(tx, "ttt"); return err })
		got := pendingOf(t, s)
		if n != 2 || len(got) != 2 || got[0].RowKey != "new" || got[1].RowKey != "old" || got[1].Entity != nil || got[0].Entity == nil || got[0].BaseETag != "" {
			t.Fatalf("outbox = %+v", got)
		}
	})
	t.Run("ErrTableNotFound", func(t *testing.T) {
		s := newStore(t, core.Options{Hooks: replica.Hooks{}})
		if err := s.Update(func(tx *core.Tx) error { return replica.Track(tx, "nope") }); !errors.Is(err, core.ErrTableNotFound) {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("ErrNotTracked", func(t *testing.T) {
		s := newStore(t, core.Options{}, "ttt")
		err := s.View(func(tx *core.Tx) error { _, err := replica.Outbox(tx, "ttt", model.Key{}, 0); return err })
		if !errors.Is(err, replica.ErrNotTracked) {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("DeleteTableForgetsReplica", func(t *testing.T) {
		s := replicaStore(t)
		insert(t, s, "ttt", rent("p", "a", "x"))
		if err := s.DeleteTable("ttt"); err != nil {
			t.Fatal(err)
		}
		if _, err := s.CreateTable("ttt"); err != nil {
			t.Fatal(err)
		}
		err := s.View(func(tx *core.Tx) error { _, err := replica.Checkpoint(tx, "ttt"); return err })
		if !errors.Is(err, replica.ErrNotTracked) {
			t.Fatalf("err = %v", err)
		}
	})
}

func TestTx_ApplyPulled(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		s := replicaStore(t)
		var changed replica.Applied
		update(t, s, func(tx *core.Tx) (err error) {
			changed, err = replica.ApplyPulled(tx, "ttt", replica.Pulled{
				Entities:   []wire.RemoteEntity{{Entity: rent("p", "a", "remote"), ETag: "E1"}},
				Checkpoint: "cp1", SetCheckpoint: true,
			})
			return err
		})
		if len(changed.Written) != 1 || len(pendingOf(t, s)) != 0 {
			t.Fatalf("changed %v, outbox %v", changed, pendingOf(t, s))
		}
		// The same ETag again changes nothing.
		update(t, s, func(tx *core.Tx) (err error) {
			changed, err = replica.ApplyPulled(tx, "ttt", replica.Pulled{Entities: []wire.RemoteEntity{{Entity: rent("p", "a", "remote"), ETag: "E1"}}})
			return err
		})
		if changed.Len() != 0 {
			t.Fatalf("changed %v", changed)
		}
		var cp string
		s.View(func(tx *core.Tx) (err error) { cp, err = replica.Checkpoint(tx, "ttt"); return err })
		if cp != "cp1" {
			t.Fatalf("checkpoint %q", cp)
		}
	})
	t.Run("PendingKeptAndRemoteDeletes", func(t *testing.T) {
		s := replicaStore(t)
		update(t, s, func(tx *core.Tx) error {
			_, err := replica.ApplyPulled(tx, "ttt", replica.Pulled{Entities: []wire.RemoteEntity{
				{Entity: rent("p", "a", "r1"), ETag: "Ea"}, {Entity: rent("p", "b", "r1"), ETag: "Eb"}}})
			return err
		})
		if _, err := s.Apply("ttt", core.Op{Kind: core.OpInsertOrReplace, Entity: rent("p", "a", "local")}); err != nil {
			t.Fatal(err)
		}
		update(t, s, func(tx *core.Tx) error {
			_, err := replica.ApplyPulled(tx, "ttt", replica.Pulled{
				Entities: []wire.RemoteEntity{{Entity: rent("p", "a", "r2"), ETag: "Ea2"}},
				Deleted:  []model.Key{{PartitionKey: "p", RowKey: "b"}, {PartitionKey: "p", RowKey: "never"}}})
			return err
		})
		a, err := s.Get("ttt", "p", "a")
		if err != nil || a.Properties[0].Value.Str() != "local" {
			t.Fatalf("a = %+v, %v", a, err)
		}
		if _, err := s.Get("ttt", "p", "b"); !errors.Is(err, core.ErrEntityNotFound) {
			t.Fatalf("b: %v", err)
		}
		got := pendingOf(t, s)
		if len(got) != 1 || got[0].BaseETag != "Ea" {
			t.Fatalf("outbox %+v", got)
		}
	})
	t.Run("OnlySynced", func(t *testing.T) {
		s := replicaStore(t)
		insert(t, s, "ttt", rent("p", "local", "x"))
		etag := mustETag(t, s, "p", "local")
		update(t, s, func(tx *core.Tx) error {
			return replica.Acknowledge(tx, "ttt", model.Key{PartitionKey: "p", RowKey: "local"}, etag, "")
		})
		// Acknowledged with no remote ETag and no outbox: a reconciliation keeps it.
		update(t, s, func(tx *core.Tx) error {
			_, err := replica.ApplyPulled(tx, "ttt", replica.Pulled{Deleted: []model.Key{{PartitionKey: "p", RowKey: "local"}}, OnlySynced: true})
			return err
		})
		if _, err := s.Get("ttt", "p", "local"); err != nil {
			t.Fatal(err)
		}
	})
}

func mustETag(t *testing.T, s *core.Store, pk, rk string) string {
	t.Helper()
	e, err := s.Get("ttt", pk, rk)
	if err != nil {
		t.Fatal(err)
	}
	return e.ETag()
}

func TestTx_Acknowledge(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		s := replicaStore(t)
		insert(t, s, "ttt", rent("p", "a", "x"))
		etag := mustETag(t, s, "p", "a")
		update(t, s, func(tx *core.Tx) error {
			return replica.Acknowledge(tx, "ttt", model.Key{PartitionKey: "p", RowKey: "a"}, etag, "R1")
		})
		if got := pendingOf(t, s); len(got) != 0 {
			t.Fatalf("outbox %+v", got)
		}
	})
	t.Run("ChangedSince", func(t *testing.T) {
		s := replicaStore(t)
		insert(t, s, "ttt", rent("p", "a", "x"))
		pushed := mustETag(t, s, "p", "a")
		if _, err := s.Apply("ttt", core.Op{Kind: core.OpInsertOrReplace, Entity: rent("p", "a", "y")}); err != nil {
			t.Fatal(err)
		}
		update(t, s, func(tx *core.Tx) error {
			return replica.Acknowledge(tx, "ttt", model.Key{PartitionKey: "p", RowKey: "a"}, pushed, "R1")
		})
		got := pendingOf(t, s)
		if len(got) != 1 || got[0].BaseETag != "R1" {
			t.Fatalf("outbox %+v", got)
		}
	})
}

func TestTx_TakeRemote(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		s := replicaStore(t)
		insert(t, s, "ttt", rent("p", "a", "local"))
		var ok bool
		etag := mustETag(t, s, "p", "a")
		update(t, s, func(tx *core.Tx) (err error) {
			ok, err = replica.TakeRemote(tx, "ttt", model.Key{PartitionKey: "p", RowKey: "a"}, etag, rent("p", "a", "server"), "S1")
			return err
		})
		a, _ := s.Get("ttt", "p", "a")
		if !ok || a.Properties[0].Value.Str() != "server" || len(pendingOf(t, s)) != 0 {
			t.Fatalf("ok %v a %+v outbox %+v", ok, a, pendingOf(t, s))
		}
	})
	t.Run("ChangedSince", func(t *testing.T) {
		s := replicaStore(t)
		insert(t, s, "ttt", rent("p", "a", "local"))
		var ok bool
		update(t, s, func(tx *core.Tx) (err error) {
			ok, err = replica.TakeRemote(tx, "ttt", model.Key{PartitionKey: "p", RowKey: "a"}, "W/\"stale\"", nil, "")
			return err
		})
		if ok || len(pendingOf(t, s)) != 1 {
			t.Fatalf("ok %v outbox %+v", ok, pendingOf(t, s))
		}
	})
	t.Run("Deleted", func(t *testing.T) {
		s := replicaStore(t)
		insert(t, s, "ttt", rent("p", "a", "local"))
		etag := mustETag(t, s, "p", "a")
		update(t, s, func(tx *core.Tx) error {
			_, err := replica.TakeRemote(tx, "ttt", model.Key{PartitionKey: "p", RowKey: "a"}, etag, nil, "")
			return err
		})
		if _, err := s.Get("ttt", "p", "a"); !errors.Is(err, core.ErrEntityNotFound) || len(pendingOf(t, s)) != 0 {
			t.Fatalf("get: %v outbox %+v", err, pendingOf(t, s))
		}
	})
}

func TestTx_Rebase(t *testing.T) {
	s := replicaStore(t)
	insert(t, s, "ttt", rent("p", "a", "local"))
	update(t, s, func(tx *core.Tx) error {
		return replica.Rebase(tx, "ttt", model.Key{PartitionKey: "p", RowKey: "a"}, "S9")
	})
	if got := pendingOf(t, s); len(got) != 1 || got[0].BaseETag != "S9" {
		t.Fatalf("outbox %+v", got)
	}
}

func TestTx_SameAsLocal(t *testing.T) {
	s := replicaStore(t)
	insert(t, s, "ttt", rent("p", "a", "x"))
	cases := []struct {
		name string
		e    *model.Entity
		want bool
	}{
		{"OK", rent("p", "a", "x"), true},
		{"Different", rent("p", "a", "y"), false},
		{"TypeDiffers", &model.Entity{PartitionKey: "p", RowKey: "a", Properties: []model.Property{{Name: "v", Value: model.BinaryValue([]byte("x"))}}}, false},
		{"Absent", nil, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var got bool
			s.View(func(tx *core.Tx) (err error) {
				got, err = replica.SameAsLocal(tx, "ttt", model.Key{PartitionKey: "p", RowKey: "a"}, c.e)
				return err
			})
			if got != c.want {
				t.Fatalf("got %v", got)
			}
		})
	}
}

// TestTx_Pending: the outbox count follows every change of the outbox, in the same
// transaction: writes (a key written twice counts once), a batch, a rolled-back
// transaction, acknowledgements, a conflict taken from the server, a rebase, and
// tracking again.
func TestTx_Pending(t *testing.T) {
	s := newStore(t, core.Options{Hooks: replica.Hooks{}}, "ttt")
	insert(t, s, "ttt", rent("p", "before", "x"))
	update(t, s, func(tx *core.Tx) error { return replica.Track(tx, "ttt") })
	check := func(step string, want int) {
		t.Helper()
		var n int
		if err := s.View(func(tx *core.Tx) (err error) { n, err = replica.PendingCount(tx, "ttt"); return err }); err != nil {
			t.Fatal(err)
		}
		if got := len(pendingOf(t, s)); n != want || got != want {
			t.Fatalf("%s: Pending = %d, outbox holds %d; want %d", step, n, got, want)
		}
	}
	check("tracked", 1)
	insert(t, s, "ttt", rent("p", "a", "1"))
	if _, err := s.Apply("ttt", core.Op{Kind: core.OpInsertOrReplace, Entity: rent("p", "a", "2")}); err != nil {
		t.Fatal(err)
	}
	check("a key written twice", 2)
	if _, err := s.ApplyBatch("ttt", []core.Op{
		{Kind: core.OpInsert, Entity: rent("q", "1", "")},
		{Kind: core.OpInsert, Entity: rent("q", "2", "")},
	}); err != nil {
		t.Fatal(err)
	}
	check("a batch", 4)
	failed := errors.New("roll back")
	if err := s.Update(func(tx *core.Tx) error {
		if _, err := tx.Apply("ttt", core.Op{Kind: core.OpInsert, Entity: rent("r", "1", "")}); err != nil {
			return err
		}
		return failed
	}); !errors.Is(err, failed) {
		t.Fatal(err)
	}
	check("a transaction rolled back", 4)
	items := pendingOf(t, s)
	update(t, s, func(tx *core.Tx) error {
		return replica.Acknowledge(tx, "ttt", items[0].Key, items[0].LocalETag(), "R1")
	})
	update(t, s, func(tx *core.Tx) error {
		return replica.Acknowledge(tx, "ttt", items[0].Key, items[0].LocalETag(), "R2") // twice: counted out once
	})
	check("acknowledged", 3)
	update(t, s, func(tx *core.Tx) error {
		_, err := replica.TakeRemote(tx, "ttt", items[1].Key, items[1].LocalETag(), rent(items[1].PartitionKey, items[1].RowKey, "server"), "R3")
		return err
	})
	check("taken from the server", 2)
	update(t, s, func(tx *core.Tx) error { return replica.Rebase(tx, "ttt", items[0].Key, "R4") })
	check("rebased", 3)
	update(t, s, func(tx *core.Tx) error { return replica.Untrack(tx, "ttt") })
	update(t, s, func(tx *core.Tx) error { return replica.Track(tx, "ttt") })
	check("tracked again", 4)
}

func TestTx_ForgetRemote(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		s := replicaStore(t)
		insert(t, s, "ttt", rent("p", "synced", "x"))
		insert(t, s, "ttt", rent("p", "local", "y"))
		items := pendingOf(t, s)
		update(t, s, func(tx *core.Tx) error {
			return replica.Acknowledge(tx, "ttt", items[1].Key, items[1].LocalETag(), "R1")
		})
		update(t, s, func(tx *core.Tx) error { return replica.ForgetRemote(tx, "ttt", "adopt:") })
		var cp string
		var n int
		var synced []model.Key
		err := s.View(func(tx *core.Tx) (err error) {
			if cp, err = replica.Checkpoint(tx, "ttt"); err != nil {
				return err
			}
			if n, err = replica.PendingCount(tx, "ttt"); err != nil {
				return err
			}
			synced, err = replica.SyncedKeys(tx, "ttt")
			return err
		})
		if err != nil || cp != "adopt:" || n != 0 || len(synced) != 0 || len(pendingOf(t, s)) != 0 {
			t.Fatalf("checkpoint %q, pending %d, synced %v, %v", cp, n, synced, err)
		}
		if got := scanAll(t, s, "ttt"); len(got) != 2 {
			t.Fatalf("%d entities kept, want 2", len(got))
		}
		insert(t, s, "ttt", rent("p", "after", "z"))
		if got := pendingOf(t, s); len(got) != 1 || got[0].RowKey != "after" {
			t.Fatalf("a write after: outbox %+v", got)
		}
	})
	t.Run("ErrNotTracked", func(t *testing.T) {
		s := newStore(t, core.Options{}, "ttt")
		err := s.Update(func(tx *core.Tx) error { return replica.ForgetRemote(tx, "ttt", "") })
		if !errors.Is(err, replica.ErrNotTracked) {
			t.Fatalf("err = %v", err)
		}
	})
}
