package transfertest

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/tabletopdb/tabletop/core/model"
)

// EdgeEntities returns entities that hold every EDM type at its edge values: Int64 beyond
// 2^53, DateTime at 100 ns and at both ends of its range, Double NaN, ±Infinity, whole
// numbers, the largest and the smallest, Guids, Binary of every byte, strings that need
// escapes. Their Timestamps are zero.
func EdgeEntities() []*model.Entity {
	all := make([]byte, 256)
	for i := range all {
		all[i] = byte(i)
	}
	return []*model.Entity{
		{PartitionKey: "edge", RowKey: "numbers", Properties: []model.Property{
			{Name: "I32Min", Value: model.Int32Value(math.MinInt32)},
			{Name: "I32Max", Value: model.Int32Value(math.MaxInt32)},
			{Name: "I64Min", Value: model.Int64Value(math.MinInt64)},
			{Name: "I64Max", Value: model.Int64Value(math.MaxInt64)},
			{Name: "I64Beyond53", Value: model.Int64Value(1<<53 + 1)},
			{Name: "I64Small", Value: model.Int64Value(5)},
		}},
		{PartitionKey: "edge", RowKey: "doubles", Properties: []model.Property{
			{Name: "NaN", Value: model.DoubleValue(math.NaN())},
			{Name: "PosInf", Value: model.DoubleValue(math.Inf(1))},
			{Name: "NegInf", Value: model.DoubleValue(math.Inf(-1))},
			{Name: "Whole", Value: model.DoubleValue(5)},
			{Name: "WholeBig", Value: model.DoubleValue(1 << 60)},
			{Name: "Huge", Value: model.DoubleValue(1e21)},
			{Name: "Max", Value: model.DoubleValue(math.MaxFloat64)},
			{Name: "Tiny", Value: model.DoubleValue(math.SmallestNonzeroFloat64)},
			{Name: "Tenth", Value: model.DoubleValue(0.1)},
			{Name: "Negative", Value: model.DoubleValue(-2.5e-7)},
		}},
		{PartitionKey: "edge", RowKey: "times", Properties: []model.Property{
			{Name: "Min", Value: model.DateTimeValue(model.MinDateTime)},
			{Name: "Max", Value: model.DateTimeValue(model.MaxDateTime)},
			{Name: "Ticks", Value: dateTime("2021-08-31T15:40:49.6724407Z")},
		}},
		{PartitionKey: "edge", RowKey: "others", Properties: []model.Property{
			{Name: "GuidZero", Value: model.GuidValue(model.Guid{})},
			{Name: "Guid", Value: guid("0f8fad5b-d9cb-469f-a165-70867728950e")},
			{Name: "GuidOnes", Value: guid("ffffffff-ffff-ffff-ffff-ffffffffffff")},
			{Name: "Bytes", Value: model.BinaryValue(all)},
			{Name: "True", Value: model.BoolValue(true)},
			{Name: "False", Value: model.BoolValue(false)},
			{Name: "Empty", Value: model.StringValue("")},
			{Name: "Escapes", Value: model.StringValue("quote\" backslash\\ tab\t newline\n nul\x00 <&> \u2028")},
			{Name: "Unicode", Value: model.StringValue("héllo wörld 🌍 日本")},
			{Name: "LooksTyped", Value: model.StringValue("9007199254740993")},
		}},
		{PartitionKey: "other partition é", RowKey: "row with spaces 🌍", Properties: []model.Property{
			{Name: "Only", Value: model.StringValue("one")},
		}},
	}
}

func dateTime(s string) model.Value {
	d, err := model.ParseDateTime(s)
	if err != nil {
		panic(err)
	}
	return model.DateTimeValue(d)
}

func guid(s string) model.Value {
	g, err := model.ParseGuid(s)
	if err != nil {
		panic(err)
	}
	return model.GuidValue(g)
}

// Diff describes how got differs from want, comparing keys and properties exactly (NaN
// equals NaN; property order ignored, since Azure does not keep it) and ignoring
// Timestamps unless withTimestamps. It returns "" when they are the same.
func Diff(want, got []*model.Entity, withTimestamps bool) string {
	var b strings.Builder
	index := map[[2]string]*model.Entity{}
	for _, e := range got {
		k := [2]string{e.PartitionKey, e.RowKey}
		if index[k] != nil {
			fmt.Fprintf(&b, "(%q,%q) twice\n", e.PartitionKey, e.RowKey)
		}
		index[k] = e
	}
	for _, w := range want {
		g := index[[2]string{w.PartitionKey, w.RowKey}]
		if g == nil {
			fmt.Fprintf(&b, "(%q,%q) missing\n", w.PartitionKey, w.RowKey)
			continue
		}
		if withTimestamps && g.Timestamp != w.Timestamp {
			fmt.Fprintf(&b, "(%q,%q) Timestamp %s, want %s\n", w.PartitionKey, w.RowKey, g.Timestamp, w.Timestamp)
		}
		b.WriteString(diffProperties(w, g))
	}
	if len(got) != len(want) {
		fmt.Fprintf(&b, "%d entities, want %d\n", len(got), len(want))
	}
	return b.String()
}

func diffProperties(w, g *model.Entity) string {
	var b strings.Builder
	for _, p := range w.Properties {
		v, ok := g.Get(p.Name)
		if !ok || v != p.Value {
			fmt.Fprintf(&b, "(%q,%q).%s = %s %q, want %s %q\n", w.PartitionKey, w.RowKey, p.Name, v.Type(), v.Text(), p.Value.Type(), p.Value.Text())
		}
	}
	for _, p := range g.Properties {
		if !slices.ContainsFunc(w.Properties, func(q model.Property) bool { return q.Name == p.Name }) {
			fmt.Fprintf(&b, "(%q,%q).%s unexpected\n", w.PartitionKey, w.RowKey, p.Name)
		}
	}
	return b.String()
}
