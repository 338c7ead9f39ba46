package core_test

import (
	"bytes"
	"testing"

	"github.com/tabletopdb/tabletop/core"
)

// BenchmarkEvictRange measures what a partial store's eviction costs per entity: a table
// of 20,000 entities is saved whole (SaveRange), then each round loads it into a partial
// store (LoadRange, not timed) and evicts it (EvictRange), with and without a secondary
// index on a property of every entity. The garbage of the loads is collected in the timed
// part too, as it is when a host evicts after loading.
func BenchmarkEvictRange(b *testing.B) {
	const n = 20_000
	full := benchStore(b, n)
	defer full.Close()
	var page bytes.Buffer
	if err := full.SaveRange("", core.KeySpaceEnd, &page); err != nil {
		b.Fatal(err)
	}
	for _, indexed := range []bool{false, true} {
		name := "plain"
		if indexed {
			name = "indexed"
		}
		b.Run(name, func(b *testing.B) {
			s, err := core.Open(core.Options{Partial: true, NoChangeFeed: true}) // as the browser opens its stores
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			if indexed {
				if err := s.LoadRange("", core.KeySpaceEnd, page.Bytes()); err != nil {
					b.Fatal(err)
				}
				if err := s.Update(func(tx *core.Tx) error { return tx.CreateIndex("bench", "Count") }); err != nil {
					b.Fatal(err)
				}
			}
			for b.Loop() {
				b.StopTimer()
				if err := s.LoadRange("", core.KeySpaceEnd, page.Bytes()); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				if _, err := s.EvictRange("", core.KeySpaceEnd, 0); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/entity")
		})
	}
}
