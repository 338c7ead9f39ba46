package core_test

import (
	"fmt"
	"runtime"
	"sync/atomic"
	"testing"

	"github.com/tabletopdb/tabletop/core"
)

// BenchmarkStore_InsertParallel measures single-entity inserts (Store.Apply) from 8
// writers at once into a table of 100,000 entities, as the native server's handlers make
// them: each writer builds its entity, then queues for the write lock. Its rate follows
// how long a writer holds the lock, and how often one waits for it, as well as the CPU
// each insert takes.
func BenchmarkStore_InsertParallel(b *testing.B) {
	s := benchStore(b, 100_000)
	defer s.Close()
	var next atomic.Int64
	b.SetParallelism(max(1, 8/runtime.GOMAXPROCS(0)))
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			i := int(next.Add(1))
			e := benchEntity(fmt.Sprintf("w%07d", i%1000), fmt.Sprintf("r%09d", i), i)
			if _, err := s.Apply("bench", core.Op{Kind: core.OpInsert, Entity: e}); err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "inserts/s")
}
