package core_test

import (
	"testing"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/core/stored"
)

// BenchmarkChanges measures reading a 10,000-entity table whole through its change feed
// and, side by side, through a key-order scan; both in entities/s.
func BenchmarkChanges(b *testing.B) {
	const n = 10_000
	s := benchStore(b, n)
	defer s.Close()
	b.Run("feed", func(b *testing.B) {
		seen := 0
		for range b.N {
			err := s.View(func(tx *core.Tx) error {
				return tx.Changes("bench", core.Checkpoint{}, func(core.Change) bool { seen++; return true })
			})
			if err != nil {
				b.Fatal(err)
			}
		}
		if seen != b.N*n {
			b.Fatalf("read %d changes, want %d", seen, b.N*n)
		}
		b.ReportMetric(float64(seen)/b.Elapsed().Seconds(), "entities/s")
	})
	b.Run("scan", func(b *testing.B) {
		seen := 0
		for range b.N {
			err := s.View(func(tx *core.Tx) error {
				return tx.Scan("bench", stored.WholeTable, func(*model.Entity) bool { seen++; return true })
			})
			if err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(seen)/b.Elapsed().Seconds(), "entities/s")
	})
}
