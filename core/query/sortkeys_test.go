package query

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/tabletopdb/tabletop/core/stored"
)

func TestSortKeys(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		r := rand.New(rand.NewPCG(5, 6))
		for _, n := range []int{0, 1, 2, 3, 7, 100, 1000} {
			keys := make([]stored.Record, n)
			want := map[[2]string]bool{}
			for i := range keys {
				k := [2]string{fmt.Sprint(r.IntN(10)), fmt.Sprint(r.IntN(n/2 + 1))}
				keys[i] = stored.Record{PartitionKey: k[0], RowKey: k[1]}
				want[k] = true
			}
			got := sortKeys(keys)
			if len(got) != len(want) {
				t.Fatalf("n=%d: %d keys, want %d distinct", n, len(got), len(want))
			}
			for i := range got {
				if !want[[2]string{got[i].PartitionKey, got[i].RowKey}] {
					t.Fatalf("n=%d: key %v was not given", n, got[i])
				}
				if i > 0 && compareKeys(got[i-1], got[i]) >= 0 {
					t.Fatalf("n=%d: %v before %v", n, got[i-1], got[i])
				}
			}
		}
	})
}

// BenchmarkSortKeys sorts index candidates in key order, as an index query does.
func BenchmarkSortKeys(b *testing.B) {
	for _, n := range []int{100, 10_000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			r := rand.New(rand.NewPCG(1, 2))
			src := make([]stored.Record, n)
			for i := range src {
				src[i] = stored.Record{PartitionKey: fmt.Sprintf("p%04d", r.IntN(100)), RowKey: fmt.Sprintf("r%08d", r.IntN(1e8))}
			}
			keys := make([]stored.Record, n)
			for b.Loop() {
				copy(keys, src)
				sortKeys(keys)
			}
		})
	}
}
