package wire_test

import (
	"fmt"
	"testing"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/core/query"
	"github.com/tabletopdb/tabletop/core/wire"
)

// BenchmarkPage answers the side-by-side benchmark's page request (worker/native/bench):
// a whole 1,000-entity partition of a 20,000-entity table, read by query.Records and
// written by AppendRecords with minimal metadata, as Query Entities does.
func BenchmarkPage(b *testing.B) {
	s := pageStore(b)
	c := &wire.Context{Metadata: wire.MinimalMetadata, BaseURL: "http://127.0.0.1:10002/devstoreaccount1", Account: "devstoreaccount1", Table: "bench"}
	req := query.Request{Filter: "PartitionKey eq 'p07'"}
	var buf []byte
	for b.Loop() {
		var p *query.RecordPage
		err := s.View(func(tx *core.Tx) (err error) { p, err = query.Records(tx, "bench", req); return err })
		if err != nil || len(p.Records) != 1000 {
			b.Fatalf("%d records, %v", len(p.Records), err)
		}
		buf = wire.AppendRecords(buf[:0], p.Records, c)
	}
	b.SetBytes(int64(len(buf)))
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "pages/s")
}

// pageStore returns a store whose table "bench" holds the side-by-side benchmark's
// 20,000 entities, in 20 partitions, each inserted by its own transaction.
func pageStore(b *testing.B) *core.Store {
	s, err := core.Open(core.Options{})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := s.CreateTable("bench"); err != nil {
		b.Fatal(err)
	}
	for i := range 20_000 {
		e := &model.Entity{PartitionKey: fmt.Sprintf("p%02d", i%20), RowKey: fmt.Sprintf("%06d", i)}
		e.Set("Name", model.StringValue(fmt.Sprintf("entity number %d", i)))
		e.Set("Count", model.Int32Value(int32(i)))
		e.Set("Score", model.DoubleValue(float64(i%100)+0.5))
		e.Set("Active", model.BoolValue(i%2 == 0))
		if _, err := s.Apply("bench", core.Op{Kind: core.OpInsert, Entity: e}); err != nil {
			b.Fatal(err)
		}
	}
	return s
}
