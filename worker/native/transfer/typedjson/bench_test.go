package typedjson_test

import (
	"bytes"
	"io"
	"testing"

	"github.com/goccy/go-json/jsontext"
	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/worker/native/transfer/transfertest"
	"github.com/tabletopdb/tabletop/worker/native/transfer/typedjson"
)

// benchSets are the entities the benchmarks sweep: edge values (slow paths such as the
// smallest Double included) and a typical entity of six properties.
func benchSets() map[string][]*model.Entity {
	return map[string][]*model.Entity{
		"edge": transfertest.EdgeEntities(),
		"typical": {{PartitionKey: "p042", RowKey: "r00012345", Properties: []model.Property{
			{Name: "Name", Value: model.StringValue("entity number 12345")},
			{Name: "Count", Value: model.Int32Value(12345)},
			{Name: "Big", Value: model.Int64Value(12345 << 40)},
			{Name: "Score", Value: model.DoubleValue(12345.0 / 7)},
			{Name: "When", Value: model.DateTimeValue(model.MinDateTime + 12345)},
			{Name: "Active", Value: model.BoolValue(true)},
		}}},
	}
}

func BenchmarkWriteEntity(b *testing.B) {
	for name, es := range benchSets() {
		b.Run(name, func(b *testing.B) {
			enc := jsontext.NewEncoder(io.Discard)
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				if err := typedjson.WriteEntity(enc, es[i%len(es)]); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkReadEntity(b *testing.B) {
	for name, es := range benchSets() {
		b.Run(name, func(b *testing.B) {
			var buf bytes.Buffer
			enc := jsontext.NewEncoder(&buf)
			for _, e := range es {
				typedjson.WriteEntity(enc, e)
			}
			data := buf.Bytes()
			r := bytes.NewReader(data)
			dec := jsontext.NewDecoder(r)
			b.SetBytes(int64(len(data) / len(es)))
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				if i%len(es) == 0 {
					r.Reset(data)
					dec.Reset(r)
				}
				if _, err := typedjson.ReadEntity(dec); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
