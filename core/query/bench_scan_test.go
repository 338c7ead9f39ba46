package query

import (
	"fmt"
	"testing"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/model"
)

// scanEntities and scanMatches shape BenchmarkScan's table as the side-by-side
// benchmark (worker/native/bench) shapes its own: 20,000 entities in 20 partitions, of
// which "Count ge N" matches the last 50.
const (
	scanEntities = 20_000
	scanMatches  = 50
)

// scanStore returns a store opened with opts whose table testTable holds the
// side-by-side benchmark's entities: a Name, a Count, a Score and an Active flag each.
func scanStore(b testing.TB, opts core.Options) *core.Store {
	s, err := core.Open(opts)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := s.CreateTable(testTable); err != nil {
		b.Fatal(err)
	}
	err = s.Update(func(tx *core.Tx) error {
		for i := range scanEntities {
			e := &model.Entity{PartitionKey: fmt.Sprintf("p%02d", i%20), RowKey: fmt.Sprintf("%06d", i)}
			e.Set("Name", model.StringValue(fmt.Sprintf("entity number %d", i)))
			e.Set("Count", model.Int32Value(int32(i)))
			e.Set("Score", model.DoubleValue(float64(i%100)+0.5))
			e.Set("Active", model.BoolValue(i%2 == 0))
			if _, err := tx.Apply(testTable, core.Op{Kind: core.OpInsert, Entity: e}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	return s
}

// BenchmarkScan runs the side-by-side benchmark's filter scan, "Count ge N" over 20,000
// entities with 50 matches, through Records as Query Entities does, and reports the time
// per candidate entity and the scans per second: from buntdb's tree (image=false, a
// store that keeps no scan image, as a table written between scans is read) and from the
// table's scan image (image=true, a table scanned again with no write between).
func BenchmarkScan(b *testing.B) {
	for _, image := range []bool{false, true} {
		b.Run(fmt.Sprintf("image=%t", image), func(b *testing.B) {
			opts := core.Options{}
			if !image {
				opts.ScanImageBytes = -1
			}
			s := scanStore(b, opts)
			req := Request{Filter: fmt.Sprintf("Count ge %d", scanEntities-scanMatches)}
			for b.Loop() {
				var p *RecordPage
				err := s.View(func(tx *core.Tx) (err error) { p, err = Records(tx, testTable, req); return err })
				if err != nil {
					b.Fatal(err)
				}
				if len(p.Records) != scanMatches || p.Examined != scanEntities {
					b.Fatalf("%d records from %d examined", len(p.Records), p.Examined)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*scanEntities), "ns/entity")
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "scans/s")
		})
	}
}
