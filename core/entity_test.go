package core_test

import (
	"testing"

	"github.com/tabletopdb/tabletop/core"
)

func TestEntity_GetSet(t *testing.T) {
	e := &core.Entity{}
	e.Set("A", core.Int32Value(1))
	e.Set("B", core.StringValue("b"))
	e.Set("A", core.Int64Value(2)) // replaces in place, keeps the order
	if len(e.Properties) != 2 || e.Properties[0].Name != "A" || e.Properties[1].Name != "B" {
		t.Fatalf("properties = %+v", e.Properties)
	}
	if v, ok := e.Get("A"); !ok || v != core.Int64Value(2) {
		t.Fatalf("Get(A) = %v, %v", v, ok)
	}
	if v, ok := e.Get("a"); ok || v != (core.Value{}) {
		t.Fatalf("Get(a) = %v, %v; names are case-sensitive", v, ok)
	}
}

func TestEntity_Validate(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		e := &core.Entity{PartitionKey: "", RowKey: "", Properties: props(3)} // empty keys are keys
		wantErr(t, e.Validate(), nil)
	})
	t.Run("ErrValueOutOfRange", func(t *testing.T) {
		e := &core.Entity{Properties: []core.Property{{Name: "D", Value: core.DateTimeValue(0)}}}
		wantErr(t, e.Validate(), core.ErrValueOutOfRange)
	})
}

// TestStore_Apply_MergeAndReplace: Merge keeps the properties it does not name and
// updates those it does in place; Replace keeps only the new ones.
func TestStore_Apply_MergeAndReplace(t *testing.T) {
	s := newRuleStore(t, core.Options{}, "Writes")
	key := func(ps ...core.Property) *core.Entity {
		return &core.Entity{PartitionKey: "p", RowKey: "r", Properties: ps}
	}
	a, b, c := core.Property{Name: "A", Value: core.Int32Value(1)}, core.Property{Name: "B", Value: core.StringValue("b")}, core.Property{Name: "C", Value: core.BoolValue(true)}
	a2 := core.Property{Name: "A", Value: core.StringValue("now a string")}
	steps := []struct {
		kind core.OpKind
		in   *core.Entity
		want []core.Property
	}{
		{core.OpInsertOrMerge, key(a, b), []core.Property{a, b}}, // inserts
		{core.OpMerge, key(c, a2), []core.Property{a2, b, c}},
		{core.OpReplace, key(c), []core.Property{c}},
		{core.OpInsertOrReplace, key(b, a), []core.Property{b, a}},
		{core.OpInsertOrMerge, key(), []core.Property{b, a}},
	}
	for i, st := range steps {
		out, err := s.Apply("Writes", core.Op{Kind: st.kind, Entity: st.in})
		if err != nil {
			t.Fatalf("step %d (%s): %v", i, st.kind, err)
		}
		got, err := s.Get("Writes", "p", "r")
		if err != nil || !sameEntity(got, out) || !sameEntity(got, &core.Entity{PartitionKey: "p", RowKey: "r", Timestamp: got.Timestamp, Properties: st.want}) {
			t.Fatalf("step %d (%s): stored %+v, %v; want %+v", i, st.kind, got, err, st.want)
		}
	}
}
