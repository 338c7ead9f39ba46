package wire_test

import (
	"math"
	"testing"

	"github.com/tabletopdb/tabletop/core/model"
)

func mustDateTime(t testing.TB, s string) model.DateTime {
	t.Helper()
	d, err := model.ParseDateTime(s)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func mustGuid(t testing.TB, s string) model.Guid {
	t.Helper()
	g, err := model.ParseGuid(s)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func prop(name string, v model.Value) model.Property { return model.Property{Name: name, Value: v} }

// allTypes returns an entity with a property of each of the eight types, and the tricky
// values of some of them.
func allTypes(t testing.TB) *model.Entity {
	return &model.Entity{
		PartitionKey: "p1",
		RowKey:       "r'1",
		Timestamp:    mustDateTime(t, "2021-08-31T15:40:49.6724407Z"),
		Properties: []model.Property{
			prop("Str", model.StringValue("a\"b\\c\n\x01é😀")),
			prop("Bin", model.BinaryValue([]byte{1, 2, 3, 4})),
			prop("Bool", model.BoolValue(true)),
			prop("When", model.DateTimeValue(mustDateTime(t, "2013-08-02T17:37:43.0090043Z"))),
			prop("Dbl", model.DoubleValue(5)),
			prop("Frac", model.DoubleValue(1234.1234)),
			prop("Nan", model.DoubleValue(math.NaN())),
			prop("Id", model.GuidValue(mustGuid(t, "4185404a-5818-48c3-b9be-f217df0dba6f"))),
			prop("I32", model.Int32Value(1234)),
			prop("I64", model.Int64Value(123456789012)),
		},
	}
}

// sameEntity reports whether a and b have the same keys and properties, in order.
func sameEntity(a, b *model.Entity) bool {
	if a.PartitionKey != b.PartitionKey || a.RowKey != b.RowKey || len(a.Properties) != len(b.Properties) {
		return false
	}
	for i := range a.Properties {
		if a.Properties[i] != b.Properties[i] {
			return false
		}
	}
	return true
}
