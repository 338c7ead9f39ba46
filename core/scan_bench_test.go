package core

import (
	"fmt"
	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/core/stored"
	"strings"
	"testing"
)

// BenchmarkScanRecords splits the cost of a 20,000-entity scan (the side-by-side
// benchmark's table): buntdb's walk of the tree alone, with nothing done per item; that
// walk through ScanRecords, which reads every key and record (records/image=false, a
// store that keeps no scan image); ScanRecords from the table's scan image
// (records/image=true); and each of these with one property looked up per record, as a
// filter on a custom property does (lookup/…). It reports the time per entity.
func BenchmarkScanRecords(b *testing.B) {
	stores := map[bool]*Store{false: scanRecordsStore(b, Options{ScanImageBytes: -1}), true: scanRecordsStore(b, Options{})}
	const n = 20_000
	walks := map[string]func(tx *Tx, seen *int) error{
		"tree": func(tx *Tx, seen *int) error {
			prefix := stored.TableEntities(stored.TableID("bench"))
			return tx.btx.AscendGreaterOrEqual("", prefix, func(string, string) bool { *seen++; return true })
		},
		"records": func(tx *Tx, seen *int) error {
			return tx.ScanRecords("bench", stored.WholeTable, func(*stored.Record) bool { *seen++; return true })
		},
		"lookup": func(tx *Tx, seen *int) error {
			return tx.ScanRecords("bench", stored.WholeTable, func(r *stored.Record) bool {
				if _, ok := r.Lookup("Count"); ok {
					*seen++
				}
				return true
			})
		},
	}
	for _, name := range []string{"tree", "records/image=false", "records/image=true", "lookup/image=false", "lookup/image=true"} {
		walk, image, _ := strings.Cut(name, "/image=")
		s := stores[image == "true"]
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				seen := 0
				if err := s.View(func(tx *Tx) error { return walks[walk](tx, &seen) }); err != nil || seen < n {
					b.Fatalf("saw %d entities, %v", seen, err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/entity")
		})
	}
}

// scanRecordsStore opens a store with opts whose table "bench" holds BenchmarkScanRecords'
// 20,000 entities, closed when b ends.
func scanRecordsStore(b *testing.B, opts Options) *Store {
	s, err := Open(opts)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	if _, err := s.CreateTable("bench"); err != nil {
		b.Fatal(err)
	}
	for i := range 20_000 {
		e := &model.Entity{PartitionKey: fmt.Sprintf("p%02d", i%20), RowKey: fmt.Sprintf("%06d", i)}
		e.Set("Name", model.StringValue(fmt.Sprintf("entity number %d", i)))
		e.Set("Count", model.Int32Value(int32(i)))
		e.Set("Score", model.DoubleValue(float64(i%100)+0.5))
		e.Set("Active", model.BoolValue(i%2 == 0))
		if _, err := s.Apply("bench", Op{Kind: OpInsert, Entity: e}); err != nil {
			b.Fatal(err)
		}
	}
	return s
}
