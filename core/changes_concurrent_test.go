package core_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/model"
)

// TestChanges_PagingWhileWriting pages through a table's change feed while writers insert,
// replace, batch and delete. Positions must strictly increase across pages (nothing is
// repeated), and a replica that applies every page must end equal to the table (nothing
// is skipped).
func TestChanges_PagingWhileWriting(t *testing.T) {
	s := syncStore(t, newClock(), "feed")
	var done atomic.Bool
	var wg sync.WaitGroup
	for w := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			write(t, s, rand.New(rand.NewPCG(uint64(w), 7)), 1500)
		}()
	}
	go func() { wg.Wait(); done.Store(true) }()

	replica := map[string]model.DateTime{}
	var cp core.Checkpoint
	for pages := 0; ; pages++ {
		finished := done.Load()
		page, err := changes(s, "feed", cp, 1+pages%50)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range page {
			if !cp.Before(c.Checkpoint) {
				t.Fatalf("page %d: %v after %v: repeated or out of order", pages, c.Checkpoint, cp)
			}
			cp = c.Checkpoint
			key := c.PartitionKey + "/" + c.RowKey
			if c.Deleted() {
				delete(replica, key)
			} else {
				replica[key] = c.Entity.Timestamp
			}
		}
		if finished && len(page) == 0 {
			break
		}
		runtime.Gosched()
	}
	want := map[string]model.DateTime{}
	for _, e := range scanAll(t, s, "feed") {
		want[e.PartitionKey+"/"+e.RowKey] = e.Timestamp
	}
	if len(want) != len(replica) {
		t.Fatalf("replica holds %d entities, table %d", len(replica), len(want))
	}
	for k, ts := range want {
		if replica[k] != ts {
			t.Fatalf("%s: replica at %v, table at %v", k, replica[k], ts)
		}
	}
}

// write performs n random writes on 60 keys of table feed: upserts, deletes and batches.
func write(t *testing.T, s *core.Store, r *rand.Rand, n int) {
	for range n {
		pk, rk := fmt.Sprintf("p%d", r.IntN(3)), fmt.Sprintf("r%02d", r.IntN(20))
		e := &model.Entity{PartitionKey: pk, RowKey: rk, Properties: []model.Property{{Name: "N", Value: model.Int32Value(int32(r.IntN(1000)))}}}
		var err error
		switch r.IntN(4) {
		case 0:
			_, err = s.Apply("feed", core.Op{Kind: core.OpDelete, Entity: e})
		case 1:
			e2 := &model.Entity{PartitionKey: pk, RowKey: rk + "b", Properties: e.Properties}
			_, err = s.ApplyBatch("feed", []core.Op{{Kind: core.OpInsertOrMerge, Entity: e}, {Kind: core.OpInsertOrReplace, Entity: e2}})
		default:
			_, err = s.Apply("feed", core.Op{Kind: core.OpInsertOrReplace, Entity: e})
		}
		if err != nil && !errors.Is(err, core.ErrEntityNotFound) {
			t.Error(err)
			return
		}
		if r.IntN(8) == 0 {
			time.Sleep(time.Microsecond)
		}
	}
}
