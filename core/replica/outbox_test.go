package replica

import (
	"testing"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/model"
)

// TestOutboxCount_BeforeCounts: a table tracked before outbox counts were kept has no
// count record; its outbox is counted once, and the first change writes the record.
func TestOutboxCount_BeforeCounts(t *testing.T) {
	s, err := core.Open(core.Options{Hooks: Hooks{}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	e := func(rk string) *model.Entity { return &model.Entity{PartitionKey: "p", RowKey: rk} }
	err = s.Update(func(tx *core.Tx) error {
		if _, err := tx.CreateTable("ttt"); err != nil {
			return err
		}
		if err := Track(tx, "ttt"); err != nil {
			return err
		}
		for _, rk := range []string{"a", "b"} {
			if _, err := tx.Apply("ttt", core.Op{Kind: core.OpInsert, Entity: e(rk)}); err != nil {
				return err
			}
		}
		return tx.RawDelete(countKey("ttt")) // as a store before counts left it
	})
	if err != nil {
		t.Fatal(err)
	}
	pending := func() (n int, stored bool) {
		t.Helper()
		err := s.View(func(tx *core.Tx) (err error) {
			if n, err = PendingCount(tx, "ttt"); err != nil {
				return err
			}
			stored, err = has(tx, countKey("ttt"))
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return n, stored
	}
	if n, stored := pending(); n != 2 || stored {
		t.Fatalf("before any change: %d (record %v), want 2 counted", n, stored)
	}
	if _, err := s.Apply("ttt", core.Op{Kind: core.OpInsert, Entity: e("c")}); err != nil {
		t.Fatal(err)
	}
	if n, stored := pending(); n != 3 || !stored {
		t.Fatalf("after a write: %d (record %v), want 3 recorded", n, stored)
	}
}
