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
// between transactions (that it exists, holds no deletion records) is dropped by every write that changes it, so that no write acts on a stale
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
		if err := s.DeleteTable("tTt"); err != nil {
			t.Fatal(err)
		}
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
