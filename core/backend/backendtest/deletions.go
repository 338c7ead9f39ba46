package backendtest

import (
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/tabletopdb/tabletop/core"
)

// testDeletionRecords checks that the change feed, deletion records included, and the
// record of a deleted table come back identical after a reopen, with and without
// compaction in between.
func testDeletionRecords(t *testing.T, open func() core.Backend, compact bool) {
	opts := core.Options{DeletionRetention: time.Hour}
	s := mustOpenWith(t, open(), opts)
	s.CreateTable("gone")
	s.Apply("gone", core.Op{Kind: core.OpInsert, Entity: AllTypes("p", "x")})
	var old core.Checkpoint
	s.View(func(tx *core.Tx) error {
		return tx.Changes("gone", core.Checkpoint{}, func(c core.Change) bool { old = c.Checkpoint; return false })
	})
	s.DeleteTable("gone")
	s.CreateTable("gone")
	s.CreateTable("feed")
	for _, rk := range []string{"a", "b", "c"} {
		s.Apply("feed", core.Op{Kind: core.OpInsert, Entity: AllTypes("p", rk)})
	}
	s.ApplyBatch("feed", []core.Op{{Kind: core.OpDelete, Entity: AllTypes("p", "a")}, {Kind: core.OpDelete, Entity: AllTypes("p", "c")}})
	want := feedOf(t, s, "feed")
	var last core.Checkpoint
	s.View(func(tx *core.Tx) error {
		return tx.Changes("feed", core.Checkpoint{}, func(c core.Change) bool { last = c.Checkpoint; return true })
	})
	if compact {
		if err := s.Compact(); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	s = mustOpenWith(t, open(), opts)
	defer s.Close()
	if got := feedOf(t, s, "feed"); !reflect.DeepEqual(got, want) {
		t.Fatalf("change feed after reopen:\n got %v\nwant %v", got, want)
	}
	err := s.View(func(tx *core.Tx) error { return tx.Changes("feed", last, func(core.Change) bool { return true }) })
	if err != nil {
		t.Fatalf("the last checkpoint before the reopen: %v", err)
	}
	err = s.View(func(tx *core.Tx) error { return tx.Changes("gone", old, func(core.Change) bool { return true }) })
	if !errors.Is(err, core.ErrTableReplaced) {
		t.Fatalf("checkpoint before the table was deleted: err = %v, want ErrTableReplaced", err)
	}
}

func mustOpenWith(t *testing.T, b core.Backend, opts core.Options) *core.Store {
	t.Helper()
	opts.Backend = b
	s, err := core.Open(opts)
	if err != nil {
		t.Fatalf("open store: %v", err)
	}
	return s
}

// feedOf lists a table's whole change feed as "pk/rk@Timestamp", deletions prefixed "-".
func feedOf(t *testing.T, s *core.Store, table string) []string {
	t.Helper()
	var out []string
	err := s.View(func(tx *core.Tx) error {
		return tx.Changes(table, core.Checkpoint{}, func(c core.Change) bool {
			d := c.PartitionKey + "/" + c.RowKey + "@" + c.Timestamp.String()
			if c.Deleted() {
				d = "-" + d
			}
			out = append(out, d)
			return true
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != 3 {
		t.Fatalf("feed of %s = %v, want one entity and two deletions", table, out)
	}
	return out
}
