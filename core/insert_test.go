package core_test

import (
	"slices"
	"testing"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/core/stored"
)

// TestTx_Apply_InsertExisting: an insert finds an existing entity in the write itself
// (Tx.insert) and puts it back. A transaction that goes on after the ErrEntityExists and
// commits keeps the entity as it was (properties, ETag, index entries, the change set
// replayed on reopening), and queues nothing for a sync client's push.
func TestTx_Apply_InsertExisting(t *testing.T) {
	backend := memoryBackend()
	s := newRuleStore(t, core.Options{Backend: backend()}, "Items")
	createIndex(t, s, "Items", "Price")
	was := insert(t, s, "Items", priced("p", "1", model.Int32Value(1)))
	err := s.Update(func(tx *core.Tx) error {
		_, err := tx.Apply("Items", core.Op{Kind: core.OpInsert, Entity: priced("p", "1", model.Int32Value(8))})
		wantErr(t, err, core.ErrEntityExists)
		_, err = tx.Apply("Items", core.Op{Kind: core.OpInsert, Entity: priced("p", "2", model.Int32Value(2))})
		return err
	})
	wantErr(t, err, nil)
	check := func(t *testing.T, s *core.Store) {
		t.Helper()
		got, err := s.Get("Items", "p", "1")
		wantErr(t, err, nil)
		if got.ETag() != was.ETag() || !slices.Equal(got.Properties, was.Properties) {
			t.Fatalf("entity after a failed insert: %+v, want %+v", got, was)
		}
		if got := indexKeys(t, s, "Items", "Price", stored.IndexEq(model.Int32Value(8))); len(got) != 0 {
			t.Fatalf("index entries of a failed insert: %v", got)
		}
		if got := indexKeys(t, s, "Items", "Price", stored.IndexBelow(model.Int32Value(100), true)); !slices.Equal(got, []string{"p/1", "p/2"}) {
			t.Fatalf("index entries: %v", got)
		}
		checkIndexes(t, s, "Items")
	}
	t.Run("OK", func(t *testing.T) { check(t, s) })
	t.Run("OK/Reopened", func(t *testing.T) {
		s.Close()
		s, err := core.Open(core.Options{Backend: backend()})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		check(t, s)
	})
}
