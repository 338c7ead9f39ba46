package core_test

import (
	"math"
	"testing"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/model"
)

// The data model, "Limits": at most 255 properties (252 custom) and 1 MiB per entity by
// Azure's size formula. "Tables, entities, properties": no schema.

func TestRule_Entity_252CustomProperties(t *testing.T) {
	s := newRuleStore(t, core.Options{}, "Props")
	t.Run("OK/252", func(t *testing.T) {
		e := &model.Entity{PartitionKey: "p", RowKey: "252", Properties: props(model.MaxCustomProperties)}
		wantErr(t, e.Validate(), nil)
		insert(t, s, "Props", e)
		got, err := s.Get("Props", "p", "252")
		if err != nil || len(got.Properties) != 252 {
			t.Fatalf("Get: %v, %d properties", err, len(got.Properties))
		}
	})
	t.Run("ErrTooManyProperties/253", func(t *testing.T) {
		e := &model.Entity{PartitionKey: "p", RowKey: "253", Properties: props(253)}
		wantErr(t, e.Validate(), model.ErrTooManyProperties)
		_, err := s.Apply("Props", core.Op{Kind: core.OpInsert, Entity: e})
		wantErr(t, err, model.ErrTooManyProperties)
	})
	t.Run("ErrTooManyProperties/merge", func(t *testing.T) {
		// 252 stored plus one new one merged in makes 253.
		extra := &model.Entity{PartitionKey: "p", RowKey: "252", Properties: []model.Property{{Name: "extra", Value: model.Int32Value(1)}}}
		for _, k := range []core.OpKind{core.OpMerge, core.OpInsertOrMerge} {
			_, err := s.Apply("Props", core.Op{Kind: k, Entity: extra})
			wantErr(t, err, model.ErrTooManyProperties)
		}
		// Merging a property the entity already has keeps 252.
		same := &model.Entity{PartitionKey: "p", RowKey: "252", Properties: []model.Property{{Name: "p7", Value: model.Int32Value(1)}}}
		_, err := s.Apply("Props", core.Op{Kind: core.OpMerge, Entity: same})
		wantErr(t, err, nil)
	})
}

// entityOfSize builds an entity whose size by Azure's formula is exactly n bytes
// (n ≥ 14), filling it with 64 KiB Strings named s00, s01, ... and one Binary "b" of
// 8+2+4+len bytes to make up the rest.
func entityOfSize(t testing.TB, n int) *model.Entity {
	t.Helper()
	e := &model.Entity{PartitionKey: "pk", RowKey: "rk"}
	big := model.StringValue(rep("x", model.MaxValueBytes/2))
	for i := 0; n-formulaSize(e)-14 > model.MaxValueBytes; i++ {
		e.Properties = append(e.Properties, model.Property{Name: "s" + itoa(i/10) + itoa(i%10), Value: big})
	}
	rest := n - formulaSize(e) - (8 + 2*1 + 4) // the Binary property "b"
	if rest < 0 || rest > model.MaxValueBytes {
		t.Fatalf("cannot build an entity of %d bytes", n)
	}
	e.Properties = append(e.Properties, model.Property{Name: "b", Value: model.BinaryValue(make([]byte, rest))})
	if got := formulaSize(e); got != n {
		t.Fatalf("built %d bytes, want %d", got, n)
	}
	return e
}

// formulaSize is Azure's entity size formula, written out independently of Entity.Size:
// 4 + 2×len(PartitionKey+RowKey) + per property 8 + 2×len(name) + value size; these tests
// use only ASCII names and keys, so len counts bytes.
func formulaSize(e *model.Entity) int {
	n := 4 + 2*(len(e.PartitionKey)+len(e.RowKey))
	for _, p := range e.Properties {
		n += 8 + 2*len(p.Name)
		switch v := p.Value; v.Type() {
		case model.TypeString:
			n += 2*len(v.Str()) + 4
		case model.TypeBinary:
			n += len(v.Bytes()) + 4
		case model.TypeDateTime, model.TypeDouble, model.TypeInt64:
			n += 8
		case model.TypeGuid:
			n += 16
		case model.TypeInt32:
			n += 4
		case model.TypeBoolean:
			n++
		}
	}
	return n
}

func TestRule_Entity_1MiB(t *testing.T) {
	s := newRuleStore(t, core.Options{}, "Big")
	t.Run("OK/1048576", func(t *testing.T) {
		e := entityOfSize(t, model.MaxEntityBytes)
		if e.Size() != 1_048_576 {
			t.Fatalf("Size = %d", e.Size())
		}
		wantErr(t, e.Validate(), nil)
		insert(t, s, "Big", e)
		got, err := s.Get("Big", e.PartitionKey, e.RowKey)
		if err != nil || got.Size() != 1_048_576 {
			t.Fatalf("Get: %v", err)
		}
	})
	t.Run("ErrEntityTooLarge/1048577", func(t *testing.T) {
		e := entityOfSize(t, model.MaxEntityBytes+1)
		e.RowKey = "rl" // same length, another entity
		if e.Size() != 1_048_577 {
			t.Fatalf("Size = %d", e.Size())
		}
		wantErr(t, e.Validate(), model.ErrEntityTooLarge)
		_, err := s.Apply("Big", core.Op{Kind: core.OpInsertOrReplace, Entity: e})
		wantErr(t, err, model.ErrEntityTooLarge)
	})
	t.Run("ErrEntityTooLarge/merge", func(t *testing.T) {
		// The stored entity is exactly 1 MiB: merging in a Boolean adds 8+2+1 bytes.
		patch := &model.Entity{PartitionKey: "pk", RowKey: "rk", Properties: []model.Property{{Name: "z", Value: model.BoolValue(true)}}}
		_, err := s.Apply("Big", core.Op{Kind: core.OpMerge, Entity: patch})
		wantErr(t, err, model.ErrEntityTooLarge)
	})
}

func TestRule_Entity_SizeFormula(t *testing.T) {
	g, _ := model.ParseGuid("0d391d16-97f1-4b9a-be68-4cc871f90001")
	cases := []struct {
		name string
		v    model.Value
		want int // the value's share: String 2×len+4, Binary len+4, ...
	}{
		{"String", model.StringValue("abc"), 2*3 + 4},
		{"StringUTF16", model.StringValue("é" + emoji), 2*3 + 4}, // 1 + 2 code units
		{"StringEmpty", model.StringValue(""), 4},
		{"Binary", model.BinaryValue([]byte{1, 2, 3, 4, 5}), 5 + 4},
		{"DateTime", model.DateTimeValue(model.MinDateTime), 8},
		{"Double", model.DoubleValue(1.5), 8},
		{"Int64", model.Int64Value(1), 8},
		{"Guid", model.GuidValue(g), 16},
		{"Int32", model.Int32Value(1), 4},
		{"Boolean", model.BoolValue(true), 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := c.v.Size(); got != c.want {
				t.Fatalf("Value.Size = %d, want %d", got, c.want)
			}
			// 4 + 2×len("pé"+"r") + 8 + 2×len("Név") + value.
			e := &model.Entity{PartitionKey: "pé", RowKey: "r", Properties: []model.Property{{Name: "Név", Value: c.v}}}
			if got, want := e.Size(), 4+2*3+8+2*3+c.want; got != want {
				t.Fatalf("Entity.Size = %d, want %d", got, want)
			}
		})
	}
	if got := (&model.Entity{}).Size(); got != 4 {
		t.Fatalf("empty entity Size = %d, want 4", got)
	}
}

func TestRule_Entity_NoSchema(t *testing.T) {
	s := newRuleStore(t, core.Options{}, "Loose")
	a := insert(t, s, "Loose", &model.Entity{PartitionKey: "p", RowKey: "a", Properties: []model.Property{
		{Name: "X", Value: model.Int32Value(1)}, {Name: "OnlyA", Value: model.BoolValue(true)},
	}})
	b := insert(t, s, "Loose", &model.Entity{PartitionKey: "p", RowKey: "b", Properties: []model.Property{
		{Name: "X", Value: model.StringValue("one")}, {Name: "OnlyB", Value: model.DoubleValue(2)},
	}})
	c := insert(t, s, "Loose", &model.Entity{PartitionKey: "p", RowKey: "c"})
	got := scanAll(t, s, "Loose")
	if len(got) != 3 {
		t.Fatalf("%d entities", len(got))
	}
	for i, want := range []*model.Entity{a, b, c} {
		if !sameEntity(got[i], want) {
			t.Errorf("entity %d = %+v, want %+v", i, got[i], want)
		}
	}
}

func sameEntity(a, b *model.Entity) bool {
	if a.PartitionKey != b.PartitionKey || a.RowKey != b.RowKey || a.Timestamp != b.Timestamp || len(a.Properties) != len(b.Properties) {
		return false
	}
	for i := range a.Properties {
		if a.Properties[i] != b.Properties[i] {
			return false
		}
	}
	return true
}

// The data model, "Property types": every type and its extreme values survive a write and a
// read unchanged.
func TestRule_Entity_AllTypesStored(t *testing.T) {
	s := newRuleStore(t, core.Options{}, "Types")
	g, _ := model.ParseGuid("0D391D16-97F1-4B9A-BE68-4CC871F90001")
	ps := []model.Property{
		{Name: "Str", Value: model.StringValue(rep("€", model.MaxValueBytes/2))},
		{Name: "Empty", Value: model.StringValue("")},
		{Name: "Bin", Value: model.BinaryValue(make([]byte, model.MaxValueBytes))},
		{Name: "True", Value: model.BoolValue(true)},
		{Name: "False", Value: model.BoolValue(false)},
		{Name: "Min", Value: model.DateTimeValue(model.MinDateTime)},
		{Name: "Max", Value: model.DateTimeValue(model.MaxDateTime)},
		{Name: "NaN", Value: model.DoubleValue(math.NaN())},
		{Name: "Inf", Value: model.DoubleValue(math.Inf(1))},
		{Name: "NegInf", Value: model.DoubleValue(math.Inf(-1))},
		{Name: "NegZero", Value: model.DoubleValue(math.Copysign(0, -1))},
		{Name: "Tiny", Value: model.DoubleValue(math.SmallestNonzeroFloat64)},
		{Name: "Guid", Value: model.GuidValue(g)},
		{Name: "I32min", Value: model.Int32Value(math.MinInt32)},
		{Name: "I32max", Value: model.Int32Value(math.MaxInt32)},
		{Name: "I64min", Value: model.Int64Value(math.MinInt64)},
		{Name: "I64max", Value: model.Int64Value(math.MaxInt64)},
	}
	insert(t, s, "Types", &model.Entity{PartitionKey: "p", RowKey: "r", Properties: ps})
	got, err := s.Get("Types", "p", "r")
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range ps {
		if got.Properties[i] != p {
			t.Errorf("%s = %v %q, want %v %q", p.Name, got.Properties[i].Value.Type(), got.Properties[i].Value.Text(), p.Value.Type(), p.Value.Text())
		}
	}
	if v, _ := got.Get("NegZero"); !math.Signbit(v.Double()) {
		t.Error("-0 lost its sign")
	}
}
