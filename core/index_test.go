package core_test

import (
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/backend/kvlog"
	"github.com/tabletopdb/tabletop/core/backend/memory"
	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/core/stored"
)

// priced is an entity of partition pk with one property, Price.
func priced(pk, rk string, price model.Value) *model.Entity {
	return &model.Entity{PartitionKey: pk, RowKey: rk, Properties: []model.Property{{Name: "Price", Value: price}}}
}

// checkIndexes fails the test unless every index of table agrees with its entities.
func checkIndexes(t testing.TB, s *core.Store, table string) {
	t.Helper()
	if err := s.View(func(tx *core.Tx) error { return tx.CheckIndexes(table) }); err != nil {
		t.Fatal(err)
	}
}

// indexKeys returns the "pk/rk" of the entries of the index on prop within r.
func indexKeys(t testing.TB, s *core.Store, table, prop string, r stored.IndexRange) []string {
	t.Helper()
	var out []string
	err := s.View(func(tx *core.Tx) error {
		return tx.ScanIndex(table, prop, r, func(rec *stored.Record) bool {
			out = append(out, rec.PartitionKey+"/"+rec.RowKey)
			return true
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func createIndex(t testing.TB, s *core.Store, table, prop string) {
	t.Helper()
	if err := s.Update(func(tx *core.Tx) error { return tx.CreateIndex(table, prop) }); err != nil {
		t.Fatal(err)
	}
}

func TestTx_CreateIndex(t *testing.T) {
	t.Run("OK/BuildsFromExistingEntities", func(t *testing.T) {
		s := newRuleStore(t, core.Options{}, "Items")
		insert(t, s, "Items", priced("a", "1", model.Int32Value(5)))
		insert(t, s, "Items", priced("b", "2", model.DoubleValue(5)))
		insert(t, s, "Items", priced("c", "3", model.StringValue("5")))
		insert(t, s, "Items", &model.Entity{PartitionKey: "d", RowKey: "4"})
		createIndex(t, s, "Items", "Price")
		createIndex(t, s, "Items", "Price") // declaring again does nothing
		checkIndexes(t, s, "Items")
		got := indexKeys(t, s, "Items", "Price", stored.IndexEq(model.Int64Value(5)))
		if want := []string{"a/1", "b/2"}; !slices.Equal(got, want) {
			t.Fatalf("Price eq 5L: %v, want %v", got, want)
		}
		var props []string
		s.View(func(tx *core.Tx) (err error) { props, err = tx.Indexes("items"); return err })
		if !slices.Equal(props, []string{"Price"}) {
			t.Fatalf("Indexes = %v", props)
		}
	})
	t.Run("OK/RolledBack", func(t *testing.T) {
		s := newRuleStore(t, core.Options{}, "Items")
		insert(t, s, "Items", priced("a", "1", model.Int32Value(5)))
		errStop := errors.New("stop")
		wantErr(t, s.Update(func(tx *core.Tx) error {
			if err := tx.CreateIndex("Items", "Price"); err != nil {
				return err
			}
			return errStop
		}), errStop)
		s.View(func(tx *core.Tx) error {
			if tx.HasIndex("Items", "Price") {
				t.Fatal("the index of a failed transaction is declared")
			}
			return nil
		})
		createIndex(t, s, "Items", "Price")
		checkIndexes(t, s, "Items")
	})
	t.Run("ErrTableNotFound", func(t *testing.T) {
		s := newRuleStore(t, core.Options{})
		wantErr(t, s.Update(func(tx *core.Tx) error { return tx.CreateIndex("Nope", "Price") }), core.ErrTableNotFound)
	})
	t.Run("ErrPropertyNameInvalid", func(t *testing.T) {
		s := newRuleStore(t, core.Options{}, "Items")
		for _, prop := range []string{"PartitionKey", "RowKey", "Timestamp", "1x", ""} {
			wantErr(t, s.Update(func(tx *core.Tx) error { return tx.CreateIndex("Items", prop) }), model.ErrPropertyNameInvalid)
		}
	})
}

func TestTx_DropIndex(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		s := newRuleStore(t, core.Options{}, "Items")
		insert(t, s, "Items", priced("a", "1", model.Int32Value(5)))
		createIndex(t, s, "Items", "Price")
		wantErr(t, s.Update(func(tx *core.Tx) error { return tx.DropIndex("Items", "Price") }), nil)
		wantErr(t, s.View(func(tx *core.Tx) error {
			return tx.ScanIndex("Items", "Price", stored.IndexEq(model.Int32Value(5)), func(*stored.Record) bool { return true })
		}), core.ErrIndexNotFound)
		createIndex(t, s, "Items", "Price") // rebuilt from the entities, no stale entry
		checkIndexes(t, s, "Items")
	})
	t.Run("ErrIndexNotFound", func(t *testing.T) {
		s := newRuleStore(t, core.Options{}, "Items")
		wantErr(t, s.Update(func(tx *core.Tx) error { return tx.DropIndex("Items", "Price") }), core.ErrIndexNotFound)
	})
}

// TestTx_Apply_MaintainsIndexes checks the index after every kind of write.
func TestTx_Apply_MaintainsIndexes(t *testing.T) {
	s := newRuleStore(t, core.Options{}, "Items")
	createIndex(t, s, "Items", "Price")
	eq := func(v model.Value) []string { return indexKeys(t, s, "Items", "Price", stored.IndexEq(v)) }
	apply := func(kind core.OpKind, e *model.Entity) {
		t.Helper()
		if _, err := s.Apply("Items", core.Op{Kind: kind, Entity: e}); err != nil {
			t.Fatalf("%v: %v", kind, err)
		}
		checkIndexes(t, s, "Items")
	}
	steps := []struct {
		name string
		kind core.OpKind
		e    *model.Entity
		at   model.Value
		want []string
	}{
		{"Insert", core.OpInsert, priced("p", "1", model.Int32Value(1)), model.Int32Value(1), []string{"p/1"}},
		{"Replace", core.OpReplace, priced("p", "1", model.Int32Value(2)), model.Int32Value(1), nil},
		{"ReplaceWithout", core.OpReplace, &model.Entity{PartitionKey: "p", RowKey: "1"}, model.Int32Value(2), nil},
		{"Merge", core.OpMerge, priced("p", "1", model.StringValue("x")), model.StringValue("x"), []string{"p/1"}},
		{"MergeOther", core.OpMerge, &model.Entity{PartitionKey: "p", RowKey: "1", Properties: []model.Property{{Name: "Other", Value: model.BoolValue(true)}}}, model.StringValue("x"), []string{"p/1"}},
		{"InsertOrReplace", core.OpInsertOrReplace, priced("p", "1", model.DoubleValue(3.5)), model.StringValue("x"), nil},
		{"InsertOrReplaceNew", core.OpInsertOrReplace, priced("p", "2", model.DoubleValue(3.5)), model.DoubleValue(3.5), []string{"p/1", "p/2"}},
		{"InsertOrMerge", core.OpInsertOrMerge, priced("p", "2", model.Int64Value(7)), model.DoubleValue(3.5), []string{"p/1"}},
		{"InsertOrMergeNew", core.OpInsertOrMerge, priced("p", "3", model.Int64Value(7)), model.Int32Value(7), []string{"p/2", "p/3"}},
		{"Delete", core.OpDelete, &model.Entity{PartitionKey: "p", RowKey: "2"}, model.Int32Value(7), []string{"p/3"}},
	}
	for _, st := range steps {
		t.Run("OK/"+st.name, func(t *testing.T) {
			apply(st.kind, st.e)
			if got := eq(st.at); !slices.Equal(got, st.want) {
				t.Fatalf("entries at %v: %v, want %v", st.at.Text(), got, st.want)
			}
		})
	}
	t.Run("OK/FailedWriteLeavesIndex", func(t *testing.T) {
		_, err := s.Apply("Items", core.Op{Kind: core.OpInsert, Entity: priced("p", "3", model.Int32Value(8))})
		wantErr(t, err, core.ErrEntityExists)
		if got := eq(model.Int32Value(8)); len(got) != 0 {
			t.Fatalf("entries of a failed insert: %v", got)
		}
		checkIndexes(t, s, "Items")
	})
}

func TestStore_ApplyBatch_MaintainsIndexes(t *testing.T) {
	s := newRuleStore(t, core.Options{}, "Items")
	createIndex(t, s, "Items", "Price")
	insert(t, s, "Items", priced("p", "0", model.Int32Value(1)))
	t.Run("OK", func(t *testing.T) {
		_, err := s.ApplyBatch("Items", []core.Op{
			{Kind: core.OpInsert, Entity: priced("p", "1", model.Int32Value(1))},
			{Kind: core.OpMerge, Entity: priced("p", "0", model.Int32Value(2))},
			{Kind: core.OpInsertOrReplace, Entity: priced("p", "2", model.Int32Value(1))},
		})
		wantErr(t, err, nil)
		checkIndexes(t, s, "Items")
		if got := indexKeys(t, s, "Items", "Price", stored.IndexEq(model.Int32Value(1))); !slices.Equal(got, []string{"p/1", "p/2"}) {
			t.Fatalf("entries: %v", got)
		}
	})
	t.Run("ErrEntityExists/RolledBack", func(t *testing.T) {
		_, err := s.ApplyBatch("Items", []core.Op{
			{Kind: core.OpInsert, Entity: priced("p", "9", model.Int32Value(9))},
			{Kind: core.OpInsert, Entity: priced("p", "1", model.Int32Value(9))},
		})
		wantErr(t, err, core.ErrEntityExists)
		if got := indexKeys(t, s, "Items", "Price", stored.IndexEq(model.Int32Value(9))); len(got) != 0 {
			t.Fatalf("entries of a failed batch: %v", got)
		}
		checkIndexes(t, s, "Items")
	})
}

func TestTx_DeleteTable_DropsIndexes(t *testing.T) {
	s := newRuleStore(t, core.Options{}, "Items")
	createIndex(t, s, "Items", "Price")
	insert(t, s, "Items", priced("p", "1", model.Int32Value(1)))
	wantErr(t, s.DeleteTable("Items"), nil)
	if _, err := s.CreateTable("Items"); err != nil {
		t.Fatal(err)
	}
	var props []string
	s.View(func(tx *core.Tx) (err error) { props, err = tx.Indexes("Items"); return err })
	if len(props) != 0 {
		t.Fatalf("indexes of a re-created table: %v", props)
	}
	createIndex(t, s, "Items", "Price")
	if got := indexKeys(t, s, "Items", "Price", stored.IndexBelow(model.Int32Value(100), true)); len(got) != 0 {
		t.Fatalf("entries left from the deleted table: %v", got)
	}
}

func TestOpen_Indexes(t *testing.T) {
	kv := memory.NewKV()
	open := func(specs ...core.IndexSpec) (*core.Store, error) {
		return core.Open(core.Options{Backend: kvlog.New(kv), Indexes: specs})
	}
	s, err := open()
	if err != nil {
		t.Fatal(err)
	}
	s.CreateTable("Old")
	insert(t, s, "Old", priced("p", "1", model.Int32Value(1)))
	s.Close()
	t.Run("OK", func(t *testing.T) {
		s, err := open(core.IndexSpec{Table: "old", Property: "Price"}, core.IndexSpec{Table: "New", Property: "Price"})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		if got := indexKeys(t, s, "Old", "Price", stored.IndexEq(model.Int32Value(1))); !slices.Equal(got, []string{"p/1"}) {
			t.Fatalf("existing table's entries: %v", got)
		}
		if _, err := s.CreateTable("New"); err != nil {
			t.Fatal(err)
		}
		insert(t, s, "New", priced("p", "1", model.Int32Value(1)))
		if got := indexKeys(t, s, "New", "Price", stored.IndexEq(model.Int32Value(1))); !slices.Equal(got, []string{"p/1"}) {
			t.Fatalf("new table's entries: %v", got)
		}
	})
	t.Run("ErrPropertyNameInvalid", func(t *testing.T) {
		_, err := open(core.IndexSpec{Table: "Old", Property: "RowKey"})
		wantErr(t, err, model.ErrPropertyNameInvalid)
	})
}

// TestIndex_ReopenAndCompaction checks that indexes are persisted like entities: a
// store reopened from its log, and from a snapshot, has the same index.
func TestIndex_ReopenAndCompaction(t *testing.T) {
	for _, compact := range []bool{false, true} {
		name := "OK/Log"
		if compact {
			name = "OK/Snapshot"
		}
		t.Run(name, func(t *testing.T) {
			kv := memory.NewKV()
			s, err := core.Open(core.Options{Backend: kvlog.New(kv), CompactAfter: 1 << 40})
			if err != nil {
				t.Fatal(err)
			}
			s.CreateTable("Items")
			createIndex(t, s, "Items", "Price")
			for i := range 50 {
				insert(t, s, "Items", priced("p", itoa(i), model.Int32Value(int32(i%5))))
			}
			s.Apply("Items", core.Op{Kind: core.OpDelete, Entity: &model.Entity{PartitionKey: "p", RowKey: "3"}})
			if compact {
				wantErr(t, s.Compact(), nil)
			}
			s.Close()
			s, err = core.Open(core.Options{Backend: kvlog.New(kv)})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			checkIndexes(t, s, "Items")
			if got := indexKeys(t, s, "Items", "Price", stored.IndexEq(model.Int32Value(3))); len(got) != 9 {
				t.Fatalf("Price eq 3: %d entries, want 9", len(got))
			}
		})
	}
}

// TestIndexRange_Order checks that each class's encoding orders values as the filter
// compares them, ranges included, with awkward values at the edges.
func TestIndexRange_Order(t *testing.T) {
	g1, _ := model.ParseGuid("00000000-0000-0000-0000-000000000001")
	g2, _ := model.ParseGuid("ffffffff-0000-0000-0000-000000000000")
	classes := map[string][]model.Value{ // each in ascending order
		"String":   {model.StringValue(""), model.StringValue("a"), model.StringValue("a\x00"), model.StringValue("a\x00b"), model.StringValue("a\x01"), model.StringValue("ab"), model.StringValue("\U0001F600")},
		"Binary":   {model.BinaryValue(nil), model.BinaryValue([]byte{0}), model.BinaryValue([]byte{0, 0}), model.BinaryValue([]byte{0, 0xff}), model.BinaryValue([]byte{1}), model.BinaryValue([]byte{0xff, 0xff})},
		"Number":   {model.DoubleValue(math.Inf(-1)), model.Int64Value(math.MinInt64), model.Int32Value(-5), model.DoubleValue(-0.5), model.Int32Value(0), model.DoubleValue(1e-300), model.Int64Value(1 << 53), model.DoubleValue(1e300), model.DoubleValue(math.Inf(1))},
		"DateTime": {model.DateTimeValue(model.MinDateTime), model.DateTimeValue(model.MinDateTime + 1), model.DateTimeValue(model.MaxDateTime)},
		"Guid":     {model.GuidValue(g1), model.GuidValue(g2)},
		"Boolean":  {model.BoolValue(false), model.BoolValue(true)},
	}
	for name, vals := range classes {
		t.Run("OK/"+name, func(t *testing.T) {
			s := newRuleStore(t, core.Options{}, "Items")
			createIndex(t, s, "Items", "Price")
			for i, v := range vals {
				insert(t, s, "Items", priced("p", itoa(i), v))
			}
			insert(t, s, "Items", priced("q", "nan", model.DoubleValue(math.NaN())))
			all := indexKeys(t, s, "Items", "Price", stored.IndexBelow(vals[len(vals)-1], true))
			for i, v := range vals {
				if got := indexKeys(t, s, "Items", "Price", stored.IndexEq(v)); !slices.Contains(got, "p/"+itoa(i)) || len(got) != 1 {
					t.Fatalf("eq %d: %v", i, got)
				}
				above := indexKeys(t, s, "Items", "Price", stored.IndexAbove(v, false))
				below := indexKeys(t, s, "Items", "Price", stored.IndexBelow(v, false))
				bucket := 0 // a number's strict range includes its equal bucket (a superset)
				if name == "Number" {
					bucket = 1
				}
				if len(above) != len(vals)-1-i+bucket || len(below) != i+bucket {
					t.Fatalf("value %d: %d above, %d below", i, len(above), len(below))
				}
				if all[i] != "p/"+itoa(i) {
					t.Fatalf("order: %v", all)
				}
			}
		})
	}
}
