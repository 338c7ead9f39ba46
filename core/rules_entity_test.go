package core_test

import (
	"math"
	"testing"

	"github.com/tabletopdb/tabletop/core"
)

// The data model, "Limits": at most 255 properties (252 custom) and 1 MiB per entity by
// Azure's size formula. "Tables, entities, properties": no schema.

func TestRule_Entity_252CustomProperties(t *testing.T) {
	s := newRuleStore(t, core.Options{}, "Props")
	t.Run("OK/252", func(t *testing.T) {
		e := &core.Entity{PartitionKey: "p", RowKey: "252", Properties: props(core.MaxCustomProperties)}
		wantErr(t, e.Validate(), nil)
		insert(t, s, "Props", e)
		got, err := s.Get("Props", "p", "252")
		if err != nil || len(got.Properties) != 252 {
			t.Fatalf("Get: %v, %d properties", err, len(got.Properties))
		}
	})
	t.Run("ErrTooManyProperties/253", func(t *testing.T) {
		e := &core.Entity{PartitionKey: "p", RowKey: "253", Properties: props(253)}
		wantErr(t, e.Validate(), core.ErrTooManyProperties)
		_, err := s.Apply("Props", core.Op{Kind: core.OpInsert, Entity: e})
		wantErr(t, err, core.ErrTooManyProperties)
	})
	t.Run("ErrTooManyProperties/merge", func(t *testing.T) {
		// 252 stored plus one new one merged in makes 253.
		extra := &core.Entity{PartitionKey: "p", RowKey: "252", Properties: []core.Property{{Name: "extra", Value: core.Int32Value(1)}}}
		for _, k := range []core.OpKind{core.OpMerge, core.OpInsertOrMerge} {
			_, err := s.Apply("Props", core.Op{Kind: k, Entity: extra})
			wantErr(t, err, core.ErrTooManyProperties)
		}
		// Merging a property the entity already has keeps 252.
		same := &core.Entity{PartitionKey: "p", RowKey: "252", Properties: []core.Property{{Name: "p7", Value: core.Int32Value(1)}}}
		_, err := s.Apply("Props", core.Op{Kind: core.OpMerge, Entity: same})
		wantErr(t, err, nil)
	})
}

// entityOfSize builds an entity whose size by Azure's formula is exactly n bytes
// (n ≥ 14), filling it with 64 KiB Strings named s00, s01, ... and one Binary "b" of
// 8+2+4+len bytes to make up the rest.
func entityOfSize(t testing.TB, n int) *core.Entity {
	t.Helper()
	e := &core.Entity{PartitionKey: "pk", RowKey: "rk"}
	big := core.StringValue(rep("x", core.MaxValueBytes/2))
	for i := 0; n-formulaSize(e)-14 > core.MaxValueBytes; i++ {
		e.Properties = append(e.Properties, core.Property{Name: "s" + itoa(i/10) + itoa(i%10), Value: big})
	}
	rest := n - formulaSize(e) - (8 + 2*1 + 4) // the Binary property "b"
	if rest < 0 || rest > core.MaxValueBytes {
		t.Fatalf("cannot build an entity of %d bytes", n)
	}
	e.Properties = append(e.Properties, core.Property{Name: "b", Value: core.BinaryValue(make([]byte, rest))})
	if got := formulaSize(e); got != n {
		t.Fatalf("built %d bytes, want %d", got, n)
	}
	return e
}

// formulaSize is Azure's entity size formula, written out independently of Entity.Size:
// 4 + 2×len(PartitionKey+RowKey) + per property 8 + 2×len(name) + value size; these tests
// use only ASCII names and keys, so len counts bytes.
func formulaSize(e *core.Entity) int {
	n := 4 + 2*(len(e.PartitionKey)+len(e.RowKey))
	for _, p := range e.Properties {
		n += 8 + 2*len(p.Name)
		switch v := p.Value; v.Type() {
		case core.TypeString:
			n += 2*len(v.Str()) + 4
		case core.TypeBinary:
			n += len(v.Bytes()) + 4
		case core.TypeDateTime, core.TypeDouble, core.TypeInt64:
			n += 8
		case core.TypeGuid:
			n += 16
		case core.TypeInt32:
			n += 4
		case core.TypeBoolean:
			n++
		}
	}
	return n
}

func TestRule_Entity_1MiB(t *testing.T) {
	s := newRuleStore(t, core.Options{}, "Big")
	t.Run("OK/1048576", func(t *testing.T) {
		e := entityOfSize(t, core.MaxEntityBytes)
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
		e := entityOfSize(t, core.MaxEntityBytes+1)
		e.RowKey = "rl" // same length, another entity
		if e.Size() != 1_048_577 {
			t.Fatalf("Size = %d", e.Size())
		}
		wantErr(t, e.Validate(), core.ErrEntityTooLarge)
		_, err := s.Apply("Big", core.Op{Kind: core.OpInsertOrReplace, Entity: e})
		wantErr(t, err, core.ErrEntityTooLarge)
	})
	t.Run("ErrEntityTooLarge/merge", func(t *testing.T) {
		// The stored entity is exactly 1 MiB: merging in a Boolean adds 8+2+1 bytes.
		patch := &core.Entity{PartitionKey: "pk", RowKey: "rk", Properties: []core.Property{{Name: "z", Value: core.BoolValue(true)}}}
		_, err := s.Apply("Big", core.Op{Kind: core.OpMerge, Entity: patch})
		wantErr(t, err, core.ErrEntityTooLarge)
	})
}

func TestRule_Entity_SizeFormula(t *testing.T) {
	g, _ := core.ParseGuid("0d391d16-97f1-4b9a-be68-4cc871f90001")
	cases := []struct {
		name string
		v    core.Value
		want int // the value's share: String 2×len+4, Binary len+4, ...
	}{
		{"String", core.StringValue("abc"), 2*3 + 4},
		{"StringUTF16", core.StringValue("é" + emoji), 2*3 + 4}, // 1 + 2 code units
		{"StringEmpty", core.StringValue(""), 4},
		{"Binary", core.BinaryValue([]byte{1, 2, 3, 4, 5}), 5 + 4},
		{"DateTime", core.DateTimeValue(core.MinDateTime), 8},
		{"Double", core.DoubleValue(1.5), 8},
		{"Int64", core.Int64Value(1), 8},
		{"Guid", core.GuidValue(g), 16},
		{"Int32", core.Int32Value(1), 4},
		{"Boolean", core.BoolValue(true), 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := c.v.Size(); got != c.want {
				t.Fatalf("Value.Size = %d, want %d", got, c.want)
			}
			// 4 + 2×len("pé"+"r") + 8 + 2×len("Név") + value.
			e := &core.Entity{PartitionKey: "pé", RowKey: "r", Properties: []core.Property{{Name: "Név", Value: c.v}}}
			if got, want := e.Size(), 4+2*3+8+2*3+c.want; got != want {
				t.Fatalf("Entity.Size = %d, want %d", got, want)
			}
		})
	}
	if got := (&core.Entity{}).Size(); got != 4 {
		t.Fatalf("empty entity Size = %d, want 4", got)
	}
}

func TestRule_Entity_NoSchema(t *testing.T) {
	s := newRuleStore(t, core.Options{}, "Loose")
	a := insert(t, s, "Loose", &core.Entity{PartitionKey: "p", RowKey: "a", Properties: []core.Property{
		{Name: "X", Value: core.Int32Value(1)}, {Name: "OnlyA", Value: core.BoolValue(true)},
	}})
	b := insert(t, s, "Loose", &core.Entity{PartitionKey: "p", RowKey: "b", Properties: []core.Property{
		{Name: "X", Value: core.StringValue("one")}, {Name: "OnlyB", Value: core.DoubleValue(2)},
	}})
	c := insert(t, s, "Loose", &core.Entity{PartitionKey: "p", RowKey: "c"})
	got := scanAll(t, s, "Loose")
	if len(got) != 3 {
		t.Fatalf("%d entities", len(got))
	}
	for i, want := range []*core.Entity{a, b, c} {
		if !sameEntity(got[i], want) {
			t.Errorf("entity %d = %+v, want %+v", i, got[i], want)
		}
	}
}

func sameEntity(a, b *core.Entity) bool {
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
	g, _ := core.ParseGuid("0D391D16-97F1-4B9A-BE68-4CC871F90001")
	ps := []core.Property{
		{Name: "Str", Value: core.StringValue(rep("€", core.MaxValueBytes/2))},
		{Name: "Empty", Value: core.StringValue("")},
		{Name: "Bin", Value: core.BinaryValue(make([]byte, core.MaxValueBytes))},
		{Name: "True", Value: core.BoolValue(true)},
		{Name: "False", Value: core.BoolValue(false)},
		{Name: "Min", Value: core.DateTimeValue(core.MinDateTime)},
		{Name: "Max", Value: core.DateTimeValue(core.MaxDateTime)},
		{Name: "NaN", Value: core.DoubleValue(math.NaN())},
		{Name: "Inf", Value: core.DoubleValue(math.Inf(1))},
		{Name: "NegInf", Value: core.DoubleValue(math.Inf(-1))},
		{Name: "NegZero", Value: core.DoubleValue(math.Copysign(0, -1))},
		{Name: "Tiny", Value: core.DoubleValue(math.SmallestNonzeroFloat64)},
		{Name: "Guid", Value: core.GuidValue(g)},
		{Name: "I32min", Value: core.Int32Value(math.MinInt32)},
		{Name: "I32max", Value: core.Int32Value(math.MaxInt32)},
		{Name: "I64min", Value: core.Int64Value(math.MinInt64)},
		{Name: "I64max", Value: core.Int64Value(math.MaxInt64)},
	}
	insert(t, s, "Types", &core.Entity{PartitionKey: "p", RowKey: "r", Properties: ps})
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
