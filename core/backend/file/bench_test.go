package file_test

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/backend/file"
	"github.com/tabletopdb/tabletop/core/model"
)

// BenchmarkGroupCommit measures, in one run through a Store synced on every commit
// (SyncAlways): the insert rate of one writer and of 16 concurrent writers, and the mean
// latency of point gets idle and while 16 writers write. It reports the two ratios side
// by side: writers16/1 (group commit lets concurrent writers share fsyncs) and
// get-load/idle (readers do not wait for the disk). The write rates are measured with no
// reader running: a reader that reads without pause takes a whole core, which on a
// 2-core machine would leave the writers half the CPU; the loaded latency is measured in
// a phase of its own, with the 16 writers running beside the reader.
func BenchmarkGroupCommit(b *testing.B) {
	const phase = 500 * time.Millisecond
	bk, err := file.Open(b.TempDir(), file.Options{Sync: file.SyncAlways})
	if err != nil {
		b.Fatal(err)
	}
	s, err := core.Open(core.Options{Backend: bk})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	s.CreateTable("bench")
	s.Update(func(tx *core.Tx) error {
		for i := range 1000 {
			tx.Apply("bench", core.Op{Kind: core.OpInsert, Entity: &model.Entity{PartitionKey: "seed", RowKey: fmt.Sprint(i)}})
		}
		return nil
	})
	var next atomic.Int64
	var one, many, idle, loaded, perSync float64
	for b.Loop() {
		idle = getLatency(b, s, phase, nil)
		one = writeRate(b, s, 1, phase, &next, nil)
		syncs := file.Syncs(bk)
		w0 := next.Load()
		many = writeRate(b, s, 16, phase, &next, nil)
		perSync = float64(next.Load()-w0) / float64(file.Syncs(bk)-syncs)
		writeRate(b, s, 16, phase, &next, func(stop <-chan struct{}) {
			loaded = getLatency(b, s, 0, stop)
		})
	}
	b.ReportMetric(perSync, "writes/fsync-16")
	b.ReportMetric(one, "writes/s-1")
	b.ReportMetric(many, "writes/s-16")
	b.ReportMetric(idle, "ns/get-idle")
	b.ReportMetric(loaded, "ns/get-loaded")
	b.ReportMetric(loaded/idle, "get-load/idle")
	b.ReportMetric(many/one, "writers16/1")
}

// writeRate inserts from n goroutines for d and returns inserts per second; during, if
// given, runs alongside until the writers stop.
func writeRate(b *testing.B, s *core.Store, n int, d time.Duration, next *atomic.Int64, during func(stop <-chan struct{})) float64 {
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var count atomic.Int64
	if during != nil {
		wg.Go(func() { during(stop) })
	}
	start := time.Now()
	for range n {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				e := &model.Entity{PartitionKey: "w", RowKey: fmt.Sprintf("%012d", next.Add(1))}
				if _, err := s.Apply("bench", core.Op{Kind: core.OpInsert, Entity: e}); err != nil {
					b.Error(err)
					return
				}
				count.Add(1)
			}
		})
	}
	time.Sleep(d)
	close(stop)
	wg.Wait()
	return float64(count.Load()) / time.Since(start).Seconds()
}

// getLatency reads random seeded entities for d (or until stop closes) and returns the
// mean latency in nanoseconds. The keys are made beforehand and the clock read once a
// batch of reads, so that neither weighs in the mean.
func getLatency(b *testing.B, s *core.Store, d time.Duration, stop <-chan struct{}) float64 {
	const batch = 64
	keys := make([]string, 1024)
	for i := range keys {
		keys[i] = fmt.Sprint(rand.IntN(1000))
	}
	deadline := time.Now().Add(d)
	var total time.Duration
	n := 0
	for {
		if stop != nil {
			select {
			case <-stop:
				return float64(total.Nanoseconds()) / float64(max(n, 1))
			default:
			}
		} else if time.Now().After(deadline) {
			return float64(total.Nanoseconds()) / float64(max(n, 1))
		}
		t := time.Now()
		for i := range batch {
			if _, err := s.Get("bench", "seed", keys[(n+i)%len(keys)]); err != nil {
				b.Fatal(err)
			}
		}
		total += time.Since(t)
		n += batch
	}
}
