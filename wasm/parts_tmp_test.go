package main

import (
	"fmt"
	"testing"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/wire"
)

func BenchmarkParts(b *testing.B) {
	s := newSession(b)
	s.must("createTable", "bench")
	const n = 10000
	for i := range n {
		s.must("write", "bench", "create", fmt.Sprintf(`{"PartitionKey":"p%04d","RowKey":"%08d","name":"user %d","n":%d,"x":%g,"flag":true}`, i/1000, i, i, i, float64(i)/7), "")
	}
	st := s.a.stores[1]
	keys := make([][2]string, 1000)
	for i := range keys {
		k := (i * 7919) % n
		keys[i] = [2]string{fmt.Sprintf("p%04d", k/1000), fmt.Sprintf("%08d", k)}
	}
	b.Run("View", func(b *testing.B) {
		for b.Loop() {
			st.db.View(func(tx *core.Tx) error { return nil })
		}
	})
	b.Run("GetRecord", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			k := keys[i%1000]
			st.db.GetRecord("bench", k[0], k[1])
		}
	})
	b.Run("Get", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			k := keys[i%1000]
			st.db.Get("bench", k[0], k[1])
		}
	})
	rec, _ := st.db.GetRecord("bench", keys[0][0], keys[0][1])
	var buf []byte
	b.Run("AppendRecord", func(b *testing.B) {
		for b.Loop() {
			buf = wire.AppendRecord(buf[:0], &rec, &wire.Context{Metadata: wire.MinimalMetadata, Table: "bench", Exact: true})
		}
	})
	b.Run("AppendRecordNoMeta", func(b *testing.B) {
		for b.Loop() {
			buf = wire.AppendRecord(buf[:0], &rec, &wire.Context{Metadata: wire.NoMetadata, Table: "bench", Exact: true})
		}
	})
	b.Run("Timestamp", func(b *testing.B) {
		for b.Loop() {
			buf = rec.Timestamp().AppendText(buf[:0])
		}
	})
}
