package query

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/core/stored"
)

// stable returns 100 entities (rows s000..s019 of partitions p0..p4) that the writers of
// the tests below never touch.
func stable() []*model.Entity {
	var es []*model.Entity
	for p := range 5 {
		for r := range 20 {
			es = append(es, entity(fmt.Sprintf("p%d", p), fmt.Sprintf("s%03d", r), 1))
		}
	}
	return es
}

// checkPaged fails unless got is in strictly increasing key order, holds each stable
// entity that filter matches exactly once, and nothing but stable and churn entities
// (churn rows are the ones whose RowKey does not start with "s" or that hold a "~").
func checkPaged(t *testing.T, filter string, got []*model.Entity) {
	t.Helper()
	seen := map[string]int{}
	for i, e := range got {
		if i > 0 && stored.KeyAt(got[i-1].PartitionKey, got[i-1].RowKey) >= stored.KeyAt(e.PartitionKey, e.RowKey) {
			t.Fatalf("%q: (%s, %s) after (%s, %s): not in key order", filter, e.PartitionKey, e.RowKey, got[i-1].PartitionKey, got[i-1].RowKey)
		}
		seen[e.PartitionKey+"/"+e.RowKey]++
	}
	for _, k := range want(t, filter, stable()) {
		if seen[k] != 1 {
			t.Fatalf("%q: stable entity %s returned %d times", filter, k, seen[k])
		}
	}
}

var concurrentFilters = []string{"", "PartitionKey ge 'p1' and PartitionKey le 'p3'", "N ge 0", "PartitionKey eq 'p2' or PartitionKey eq 'p4'"}

// TestEntities_PagingWhileWriting writes between every two pages: a row just ahead of the
// last returned one (which must be returned later), a row behind it (which must not be),
// and the deletion of the last returned row when it is a churn row (so the next token
// names a deleted position).
func TestEntities_PagingWhileWriting(t *testing.T) {
	for _, filter := range concurrentFilters {
		for _, b := range []Budget{{}, {Examined: 4}} {
			t.Run(fmt.Sprintf("%s/%+v", filter, b), func(t *testing.T) {
				s := newStore(t, stable()...)
				ahead, behind := map[string]bool{}, map[string]bool{}
				n := 0
				between := func(p *Page) {
					if len(p.Entities) == 0 || p.NextPartitionKey == "" {
						return
					}
					last := p.Entities[len(p.Entities)-1]
					n++
					a := entity(last.PartitionKey, last.RowKey+"~", 1)
					c := entity(last.PartitionKey, fmt.Sprintf("a%04d", n), 1)
					ops := []core.Op{{Kind: core.OpInsertOrReplace, Entity: a}, {Kind: core.OpInsertOrReplace, Entity: c}}
					if strings.Contains(last.RowKey, "~") {
						ops = append(ops, core.Op{Kind: core.OpDelete, Entity: last})
					}
					if _, err := s.ApplyBatch(testTable, ops); err != nil {
						t.Fatal(err)
					}
					ahead[a.PartitionKey+"/"+a.RowKey] = true
					behind[c.PartitionKey+"/"+c.RowKey] = true
				}
				got := pageAll(t, s, Request{Filter: filter, Top: 7, Budget: b}, between)
				checkPaged(t, filter, got)
				returned := map[string]bool{}
				for _, k := range keys(got) {
					returned[k] = true
					if behind[k] {
						t.Fatalf("row %s, inserted behind the cursor, was returned", k)
					}
				}
				f, _ := ParseFilter(filter)
				for k := range ahead {
					pk, rk, _ := strings.Cut(k, "/")
					if f.Matches(entity(pk, rk, 1)) && !returned[k] {
						t.Fatalf("row %s, inserted ahead of the cursor, was not returned", k)
					}
				}
			})
		}
	}
}

// TestEntities_PagingConcurrent pages while another goroutine inserts and deletes churn
// rows in every partition as fast as it can.
func TestEntities_PagingConcurrent(t *testing.T) {
	s := newStore(t, stable()...)
	stop := make(chan struct{})
	var writes atomic.Int64
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		r := rand.New(rand.NewPCG(3, 4))
		for {
			select {
			case <-stop:
				return
			default:
			}
			e := entity(fmt.Sprintf("p%d", r.IntN(6)), fmt.Sprintf("%c%03d", "act"[r.IntN(3)], r.IntN(40)), 1)
			kind := core.OpInsertOrReplace
			if r.IntN(2) == 0 {
				kind = core.OpDelete
			}
			if _, err := s.Apply(testTable, core.Op{Kind: kind, Entity: e}); err != nil && !errors.Is(err, core.ErrEntityNotFound) {
				t.Error(err)
				return
			}
			writes.Add(1)
			runtime.Gosched()
		}
	}()
	for _, filter := range concurrentFilters {
		for _, top := range []int{1, 7, 0} {
			got := pageAll(t, s, Request{Filter: filter, Top: top}, func(*Page) { runtime.Gosched() })
			checkPaged(t, filter, got)
		}
	}
	close(stop)
	wg.Wait()
	if writes.Load() < 10 {
		t.Fatalf("only %d writes ran while paging: nothing was concurrent", writes.Load())
	}
}
