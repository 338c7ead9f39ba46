package wire_test

import (
	"strconv"
	"testing"

	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/core/wire"
)

// benchEntity returns an entity of about ten properties of mixed types, like a typical row.
func benchEntity(b *testing.B, i int) *model.Entity {
	ts := mustDateTime(b, "2021-08-31T15:40:49.6724407Z")
	return &model.Entity{
		PartitionKey: "partition-" + strconv.Itoa(i/100),
		RowKey:       "row-" + strconv.Itoa(i),
		Timestamp:    ts + model.DateTime(i),
		Properties: []model.Property{
			prop("Name", model.StringValue("Customer number "+strconv.Itoa(i))),
			prop("Email", model.StringValue("customer"+strconv.Itoa(i)+"@example.com")),
			prop("Age", model.Int32Value(int32(20+i%50))),
			prop("Balance", model.DoubleValue(float64(i)*1.25)),
			prop("Active", model.BoolValue(i%2 == 0)),
			prop("Since", model.DateTimeValue(ts-model.DateTime(i)*1e9)),
			prop("Orders", model.Int64Value(int64(i)*1e10)),
			prop("Id", model.GuidValue(model.Guid{byte(i), 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15})),
			prop("Note", model.StringValue("Ünïcode and \"quotes\" and a tab\t")),
			prop("Photo", model.BinaryValue([]byte("0123456789abcdef"))),
		},
	}
}

func BenchmarkDecodeEntity(b *testing.B) {
	for _, n := range []int{10, 100} {
		b.Run("props="+strconv.Itoa(n), func(b *testing.B) {
			e := benchEntity(b, 1)
			for len(e.Properties) < n {
				e.Properties = append(e.Properties, prop("Extra"+strconv.Itoa(len(e.Properties)), model.Int32Value(7)))
			}
			body := wire.AppendEntity(nil, e, ctx(wire.MinimalMetadata))
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := wire.DecodeEntity(body); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkAppendEntities(b *testing.B) {
	for _, n := range []int{10, 1000} {
		es := make([]*model.Entity, n)
		for i := range es {
			es[i] = benchEntity(b, i)
		}
		for _, m := range []wire.Metadata{wire.MinimalMetadata, wire.FullMetadata} {
			b.Run("n="+strconv.Itoa(n)+"/"+m.String(), func(b *testing.B) {
				c := ctx(m)
				buf := wire.AppendEntities(nil, es, c)
				b.SetBytes(int64(len(buf)))
				b.ReportAllocs()
				for b.Loop() {
					buf = wire.AppendEntities(buf[:0], es, c)
				}
			})
		}
	}
}
