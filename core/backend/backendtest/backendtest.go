// Package backendtest is the conformance suite every core.Backend passes: a store reopened
// on a backend finds every committed table and entity exactly, types, Timestamps and
// ETags included, before and after compaction.
package backendtest

import (
	"fmt"
	"math"
	"reflect"
	"testing"
	"time"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/core/stored"
)

// Storage makes fresh, empty storage for one test and returns a function that opens a
// backend on it; the test opens, closes and opens again to check what survived.
type Storage func(t *testing.T) (open func() core.Backend)

// Run runs the suite.
func Run(t *testing.T, storage Storage) {
	t.Run("ReopenRestoresEverything", func(t *testing.T) { testReopen(t, storage(t), false) })
	t.Run("ReopenAfterCompaction", func(t *testing.T) { testReopen(t, storage(t), true) })
	t.Run("DeletesSurviveReopen", func(t *testing.T) { testDeletes(t, storage(t)) })
	t.Run("ClockSurvivesReopen", func(t *testing.T) { testClock(t, storage(t)) })
	t.Run("DeletionRecordsSurviveReopen", func(t *testing.T) { testDeletionRecords(t, storage(t), false) })
	t.Run("DeletionRecordsSurviveCompaction", func(t *testing.T) { testDeletionRecords(t, storage(t), true) })
}

// AllTypes returns an entity with a property of every EDM type, at awkward values.
func AllTypes(pk, rk string) *model.Entity {
	g, _ := model.ParseGuid("0d391d16-97f1-4b9a-be68-4cc871f90001")
	return &model.Entity{PartitionKey: pk, RowKey: rk, Properties: []model.Property{
		{Name: "Str", Value: model.StringValue("héllo \U0001F600")},
		{Name: "Bin", Value: model.BinaryValue([]byte{0, 1, 0xff})},
		{Name: "Bool", Value: model.BoolValue(true)},
		{Name: "When", Value: model.DateTimeValue(model.DateTimeOf(time.Date(2021, 8, 31, 15, 40, 49, 672440700, time.UTC)))},
		{Name: "Dbl", Value: model.DoubleValue(math.Inf(-1))},
		{Name: "Nan", Value: model.DoubleValue(math.NaN())},
		{Name: "Id", Value: model.GuidValue(g)},
		{Name: "I32", Value: model.Int32Value(math.MinInt32)},
		{Name: "I64", Value: model.Int64Value(math.MaxInt64)},
	}}
}

func mustOpen(t *testing.T, b core.Backend, compactAfter int64) *core.Store {
	t.Helper()
	s, err := core.Open(core.Options{Backend: b, CompactAfter: compactAfter})
	if err != nil {
		t.Fatalf("open store: %v", err)
	}
	return s
}

func testReopen(t *testing.T, open func() core.Backend, compact bool) {
	s := mustOpen(t, open(), 1<<40)
	if _, err := s.CreateTable("MixedCase"); err != nil {
		t.Fatal(err)
	}
	want := map[string]*model.Entity{}
	for i := range 50 {
		e, err := s.Apply("mixedcase", core.Op{Kind: core.OpInsert, Entity: AllTypes("p", fmt.Sprintf("r%03d", i))})
		if err != nil {
			t.Fatal(err)
		}
		want[e.RowKey] = e
	}
	if compact {
		if err := s.Compact(); err != nil {
			t.Fatal(err)
		}
		e, err := s.Apply("mixedcase", core.Op{Kind: core.OpInsert, Entity: AllTypes("p", "after")})
		if err != nil {
			t.Fatal(err)
		}
		want[e.RowKey] = e
	}
	s.Close()
	s = mustOpen(t, open(), 1<<40)
	defer s.Close()
	checkTable(t, s, "MixedCase", want)
}

func checkTable(t *testing.T, s *core.Store, name string, want map[string]*model.Entity) {
	t.Helper()
	got := map[string]*model.Entity{}
	err := s.View(func(tx *core.Tx) error {
		tb, err := tx.Table(name)
		if err != nil {
			return err
		}
		if tb.Name != name {
			t.Errorf("table name = %q, want %q", tb.Name, name)
		}
		return tx.Scan(name, stored.WholeTable, func(e *model.Entity) bool {
			got[e.RowKey] = e
			return true
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("got %d entities, want %d", len(got), len(want))
	}
	for rk, w := range want {
		if !reflect.DeepEqual(got[rk], w) {
			t.Fatalf("entity %s:\n got %+v\nwant %+v", rk, got[rk], w)
		}
	}
}

func testDeletes(t *testing.T, open func() core.Backend) {
	s := mustOpen(t, open(), 1<<40)
	s.CreateTable("gone")
	s.CreateTable("kept")
	for _, tb := range []string{"gone", "kept"} {
		for _, rk := range []string{"a", "b"} {
			if _, err := s.Apply(tb, core.Op{Kind: core.OpInsert, Entity: AllTypes("p", rk)}); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := s.DeleteTable("gone"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Apply("kept", core.Op{Kind: core.OpDelete, Entity: &model.Entity{PartitionKey: "p", RowKey: "a"}}); err != nil {
		t.Fatal(err)
	}
	b, _ := s.Get("kept", "p", "b")
	s.Close()
	s = mustOpen(t, open(), 1<<40)
	defer s.Close()
	if _, err := s.CreateTable("gone"); err != nil {
		t.Fatalf("recreate deleted table: %v", err)
	}
	checkTable(t, s, "gone", map[string]*model.Entity{})
	checkTable(t, s, "kept", map[string]*model.Entity{"b": b})
}

func testClock(t *testing.T, open func() core.Backend) {
	frozen := func() time.Time { return time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC) }
	s, err := core.Open(core.Options{Backend: open(), Now: frozen})
	if err != nil {
		t.Fatal(err)
	}
	s.CreateTable("clock")
	first, err := s.Apply("clock", core.Op{Kind: core.OpInsert, Entity: AllTypes("p", "1")})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	s, err = core.Open(core.Options{Backend: open(), Now: frozen})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	second, err := s.Apply("clock", core.Op{Kind: core.OpInsertOrReplace, Entity: AllTypes("p", "1")})
	if err != nil {
		t.Fatal(err)
	}
	if second.Timestamp <= first.Timestamp || second.ETag() == first.ETag() {
		t.Fatalf("timestamp did not advance across reopen: %v then %v", first.Timestamp, second.Timestamp)
	}
}
