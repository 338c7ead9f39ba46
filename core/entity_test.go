package core_test

import (
	"testing"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/model"
)

func TestEntity_GetSet(t *testing.T) {
	e := &model.Entity{}
	e.Set("A", model.Int32Value(1))
	e.Set("B", model.StringValue("b"))
	e.Set("A", model.Int64Value(2)) // replaces in place, keeps the order
	if len(e.Properties) != 2 || e.Properties[0].Name != "A" || e.Properties[1].Name != "B" {
		t.Fatalf("properties = %+v", e.Properties)
	}
	if v, ok := e.Get("A"); !ok || v != model.Int64Value(2) {
		t.Fatalf("Get(A) = %v, %v", v, ok)
	}
	if v, ok := e.Get("a"); ok || v != (model.Value{}) {
		t.Fatalf("Get(a) = %v, %v; names are case-sensitive", v, ok)
	}
}

func TestEntity_Validate(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		e := &model.Entity{PartitionKey: "", RowKey: "", Properties: props(3)} // empty keys are keys
		wantErr(t, e.Validate(), nil)
	})
	t.Run("ErrValueOutOfRange", func(t *testing.T) {
		e := &model.Entity{Properties: []model.Property{{Name: "D", Value: model.DateTimeValue(0)}}}
		wantErr(t, e.Validate(), model.ErrValueOutOfRange)
	})
}

// TestStore_Apply_MergeAndReplace: Merge keeps the properties it does not name and
// updates those it does in place; Replace keeps only the new ones.
func TestStore_Apply_MergeAndReplace(t *testing.T) {
	s := newRuleStore(t, core.Options{}, "Writes")
	key := func(ps ...model.Property) *model.Entity {
		return &model.Entity{PartitionKey: "p", RowKey: "r", Properties: ps}
	}
	a, b, c := model.Property{Name: "A", Value: model.Int32Value(1)}, model.Property{Name: "B", Value: model.StringValue("b")}, model.Property{Name: "C", Value: model.BoolValue(true)}
	a2 := model.Property{Name: "A", Value: model.StringValue("now a string")}
	steps := []struct {
		kind core.OpKind
		in   *model.Entity
		want []model.Property
	}{
		{core.OpInsertOrMerge, key(a, b), []model.Property{a, b}}, // inserts
		{core.OpMerge, key(c, a2), []model.Property{a2, b, c}},
		{core.OpReplace, key(c), []model.Property{c}},
		{core.OpInsertOrReplace, key(b, a), []model.Property{b, a}},
		{core.OpInsertOrMerge, key(), []model.Property{b, a}},
	}
	for i, st := range steps {
		out, err := s.Apply("Writes", core.Op{Kind: st.kind, Entity: st.in})
		if err != nil {
			t.Fatalf("step %d (%s): %v", i, st.kind, err)
		}
		got, err := s.Get("Writes", "p", "r")
		if err != nil || !sameEntity(got, out) || !sameEntity(got, &model.Entity{PartitionKey: "p", RowKey: "r", Timestamp: got.Timestamp, Properties: st.want}) {
			t.Fatalf("step %d (%s): stored %+v, %v; want %+v", i, st.kind, got, err, st.want)
		}
	}
}
