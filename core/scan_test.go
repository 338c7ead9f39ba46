package core_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/core/stored"
)

// TestTx_ScanRecords_Batches reads a table in its neighbours' company (Scana sorts right
// after Scan's entities, Sca right before) through ranges that end at every position and
// through callers that stop after every count: a scan takes entities in batches, and no
// batch boundary may let in an entity past the range or hide one inside it.
func TestTx_ScanRecords_Batches(t *testing.T) {
	const n = 150
	s := newRuleStore(t, core.Options{}, "Sca", "Scan", "Scana")
	var rows []string
	for i := range n {
		rows = append(rows, fmt.Sprintf("%03d", i))
		for _, table := range []string{"Sca", "Scan", "Scana"} {
			e := &model.Entity{PartitionKey: "p", RowKey: rows[i]}
			e.Set("N", model.Int32Value(int32(i)))
			insert(t, s, table, e)
		}
	}
	scan := func(kr stored.KeyRange, stopAfter int) []string {
		var got []string
		err := s.View(func(tx *core.Tx) error {
			return tx.ScanRecords("Scan", kr, func(r *stored.Record) bool {
				if v, ok := r.Lookup("N"); !ok || fmt.Sprintf("%03d", v.Int32()) != r.RowKey || r.PartitionKey != "p" {
					t.Fatalf("record (%q, %q) holds N %v", r.PartitionKey, r.RowKey, v)
				}
				got = append(got, r.RowKey)
				return len(got) < stopAfter
			})
		})
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	t.Run("OK", func(t *testing.T) {
		if got := scan(stored.WholeTable, n+1); !slices.Equal(got, rows) {
			t.Fatalf("whole table: %d rows %q…, want %d", len(got), got[:min(len(got), 3)], n)
		}
		for _, from := range []int{0, 1, 7, 8, 63, 64} {
			for to := from; to <= n; to++ {
				kr := stored.KeyRange{From: stored.KeyAt("p", rows[from]), To: stored.PartitionEnd("p")}
				if to < n {
					kr.To = stored.KeyAt("p", rows[to])
				}
				if got := scan(kr, n+1); !slices.Equal(got, rows[from:to]) {
					t.Fatalf("rows [%d, %d): got %d rows from %q", from, to, len(got), got[:min(len(got), 1)])
				}
			}
		}
	})
	t.Run("StopEarly", func(t *testing.T) {
		for k := 1; k <= n; k++ {
			if got := scan(stored.WholeTable, k); !slices.Equal(got, rows[:k]) {
				t.Fatalf("stopping after %d: got %d rows", k, len(got))
			}
		}
	})
}

// TestTx_ScanRecordsUnsplit reads the same records as ScanRecords, with keys empty until
// SplitKeys finds them (and a second SplitKeys, or one on a record with its keys, changes
// nothing).
func TestTx_ScanRecordsUnsplit(t *testing.T) {
	s := newRuleStore(t, core.Options{}, "Scan")
	for _, k := range [][2]string{{"", ""}, {"", "r"}, {"p", ""}, {"p05", "012345"}, {"partition-key-17", "row"}, {"é", "ü"}} {
		e := &model.Entity{PartitionKey: k[0], RowKey: k[1]}
		e.Set("N", model.StringValue(k[0]+"/"+k[1]))
		insert(t, s, "Scan", e)
	}
	var want, got []stored.Record
	err := s.View(func(tx *core.Tx) error {
		if err := tx.ScanRecords("Scan", stored.WholeTable, func(r *stored.Record) bool { want = append(want, *r); return true }); err != nil {
			return err
		}
		return tx.ScanRecordsUnsplit("Scan", stored.WholeTable, func(r *stored.Record) bool {
			if r.PartitionKey != "" || r.RowKey != "" {
				t.Fatalf("keys (%q, %q) before SplitKeys", r.PartitionKey, r.RowKey)
			}
			r.SplitKeys()
			r.SplitKeys()
			got = append(got, *r)
			return true
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 6 || !slices.Equal(got, want) {
		t.Fatalf("unsplit scan read %+v, want %+v", got, want)
	}
	for _, r := range got {
		if v, _ := r.Lookup("N"); v.Str() != r.PartitionKey+"/"+r.RowKey {
			t.Fatalf("record (%q, %q) holds %q", r.PartitionKey, r.RowKey, v.Str())
		}
		before := r
		r.SplitKeys()
		if r != before {
			t.Fatalf("SplitKeys changed a split record: %+v, then %+v", before, r)
		}
	}
}
