package core_test

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/core/stored"
)

// benchSizes are the table sizes every engine benchmark is swept over.
var benchSizes = []int{1_000, 100_000, 1_000_000}

// partitionSize is how many entities each benchmark partition holds.
const partitionSize = 100

// benchKey names the i-th entity of a benchmark table.
func benchKey(i int) (pk, rk string) {
	return fmt.Sprintf("p%07d", i/partitionSize), fmt.Sprintf("r%03d", i%partitionSize)
}

func benchEntity(pk, rk string, i int) *model.Entity {
	return &model.Entity{PartitionKey: pk, RowKey: rk, Properties: []model.Property{
		{Name: "Name", Value: model.StringValue("entity number " + rk)},
		{Name: "Count", Value: model.Int32Value(int32(i))},
		{Name: "Total", Value: model.Int64Value(int64(i) * 1_000_003)},
		{Name: "Ratio", Value: model.DoubleValue(float64(i) / 7)},
		{Name: "Active", Value: model.BoolValue(i%2 == 0)},
		{Name: "Created", Value: model.DateTimeValue(model.MinDateTime + model.DateTime(i))},
	}}
}

// benchStore returns a memory store whose table "bench" holds n entities, loaded 1000
// entities per transaction.
func benchStore(b *testing.B, n int) *core.Store {
	s, err := core.Open(core.Options{})
	if err != nil {
		b.Fatal(err)
	}
	s.CreateTable("bench")
	for start := 0; start < n; start += 1000 {
		err := s.Update(func(tx *core.Tx) error {
			for i := start; i < min(start+1000, n); i++ {
				pk, rk := benchKey(i)
				if _, err := tx.Apply("bench", core.Op{Kind: core.OpInsert, Entity: benchEntity(pk, rk, i)}); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	return s
}

// BenchmarkStore sweeps the engine's basic operations over table sizes. Each size gets a
// fresh store, released before the next, so a large heap does not slow the small cases.
// The reads run first, on the table of n entities: the inserts after them add to it
// (hundreds of thousands of entities in a second), which would make a small table large.
func BenchmarkStore(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			s := benchStore(b, n)
			defer s.Close()
			b.Run("get", func(b *testing.B) { benchGet(b, s, n) })
			b.Run("partition-scan", func(b *testing.B) { benchPartitionScan(b, s, n) })
			b.Run("insert", func(b *testing.B) { benchInsert(b, s) })
			benchIndexed(b, s, func() { b.Run("insert-indexed", func(b *testing.B) { benchInsert(b, s) }) })
		})
		runtime.GC()
	}
}

// benchInsert measures single-entity inserts, one transaction each.
func benchInsert(b *testing.B, s *core.Store) {
	for i := 0; i < b.N; i++ {
		e := benchEntity(fmt.Sprintf("x%09d", rand.Int64()), "r", i)
		if _, err := s.Apply("bench", core.Op{Kind: core.OpInsert, Entity: e}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "inserts/s")
}

// benchIndexed runs fn with an index on Count declared (and built) on the table, and
// drops the index after it: insert-indexed measures single-entity inserts into a table
// with one index.
func benchIndexed(b *testing.B, s *core.Store, fn func()) {
	if err := s.Update(func(tx *core.Tx) error { return tx.CreateIndex("bench", "Count") }); err != nil {
		b.Fatal(err)
	}
	runtime.GC() // as between sizes: the build's garbage is not the inserts' cost
	fn()
	if err := s.Update(func(tx *core.Tx) error { return tx.DropIndex("bench", "Count") }); err != nil {
		b.Fatal(err)
	}
}

// benchGet measures point reads of random existing entities.
func benchGet(b *testing.B, s *core.Store, n int) {
	for i := 0; i < b.N; i++ {
		pk, rk := benchKey(rand.IntN(n))
		if _, err := s.Get("bench", pk, rk); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "gets/s")
}

// benchPartitionScan measures reading one whole 100-entity partition in key order.
func benchPartitionScan(b *testing.B, s *core.Store, n int) {
	seen := 0
	for i := 0; i < b.N; i++ {
		pk, _ := benchKey(rand.IntN(n))
		err := s.View(func(tx *core.Tx) error {
			return tx.Scan("bench", stored.PartitionRange(pk), func(*model.Entity) bool {
				seen++
				return true
			})
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(seen)/b.Elapsed().Seconds(), "entities/s")
}
