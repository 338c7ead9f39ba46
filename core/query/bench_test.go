package query

import (
	"fmt"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/model"
)

// benchSizes are the table sizes the benchmarks sweep.
var benchSizes = []int{10_000, 100_000, 1_000_000}

// rowsPerPartition is the size of every partition of a benchmark table.
const rowsPerPartition = 100

// groupSize is how many entities of a benchmark table share each value of Grp.
const groupSize = 100

var (
	benchMu     sync.Mutex
	benchStores = map[int]*core.Store{}
)

// benchStore returns a store whose table testTable holds n entities in partitions of
// rowsPerPartition, built once per process and size.
func benchStore(b *testing.B, n int) *core.Store {
	benchMu.Lock()
	defer benchMu.Unlock()
	if s, ok := benchStores[n]; ok {
		return s
	}
	start := time.Now()
	s, err := core.Open(core.Options{})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := s.CreateTable(testTable); err != nil {
		b.Fatal(err)
	}
	const perTx = 10_000
	for first := 0; first < n; first += perTx {
		err := s.Update(func(tx *core.Tx) error {
			for i := first; i < min(first+perTx, n); i++ {
				e := entity(benchPartition(i/rowsPerPartition), fmt.Sprintf("r%03d", i%rowsPerPartition), i)
				e.Set("Cat", model.StringValue(fmt.Sprintf("c%d", i%10)))
				e.Set("Grp", model.Int32Value(int32(i%(n/groupSize)))) // groups of groupSize, spread over the table
				if _, err := tx.Apply(testTable, core.Op{Kind: core.OpInsert, Entity: e}); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	runtime.GC() // so the garbage of loading is not collected on a measured query's time
	b.Logf("built a table of %d entities in %v", n, time.Since(start))
	benchStores[n] = s
	return s
}

func benchPartition(p int) string { return fmt.Sprintf("p%06d", p) }

// BenchmarkPartitionQuery reads one 100-entity partition from tables of growing size: a
// key-bounded query whose cost follows its result, not the table.
func BenchmarkPartitionQuery(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			s := benchStore(b, n)
			req := Request{Filter: fmt.Sprintf("PartitionKey eq '%s'", benchPartition(n/rowsPerPartition/2))}
			page(b, s, req) // warm up, untimed: b.Loop starts the clock
			got := 0
			for b.Loop() {
				p := page(b, s, req)
				if len(p.Entities) != rowsPerPartition || p.Examined != rowsPerPartition {
					b.Fatalf("%d entities from %d examined", len(p.Entities), p.Examined)
				}
				got += len(p.Entities)
			}
			b.ReportMetric(float64(got)/b.Elapsed().Seconds(), "entities/s")
		})
	}
}

// BenchmarkRowRangeQuery reads 10 rows of one partition by a RowKey range.
func BenchmarkRowRangeQuery(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			s := benchStore(b, n)
			pk := benchPartition(n / rowsPerPartition / 3)
			req := Request{Filter: fmt.Sprintf("PartitionKey eq '%s' and RowKey ge 'r040' and RowKey lt 'r050'", pk)}
			page(b, s, req)
			for b.Loop() {
				if p := page(b, s, req); len(p.Entities) != 10 {
					b.Fatalf("%d entities", len(p.Entities))
				}
			}
		})
	}
}

// BenchmarkFilterScan runs a filter no key bounds (and nothing matches) over the whole
// table, page after page, and reports how many entities it examines per second.
func BenchmarkFilterScan(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			s := benchStore(b, n)
			req := Request{Filter: "Cat eq 'none' or N lt 0"}
			examined := 0
			for b.Loop() {
				examined += scanAll(b, s, req)
			}
			if examined != n*b.N {
				b.Fatalf("examined %d entities, want %d", examined, n*b.N)
			}
			b.ReportMetric(float64(examined)/b.Elapsed().Seconds(), "entities/s")
		})
	}
}

// scanAll follows req's continuations to the end and returns how many entities the pages
// examined.
func scanAll(b *testing.B, s *core.Store, req Request) int {
	examined := 0
	for {
		p := page(b, s, req)
		examined += p.Examined
		if p.NextPartitionKey == "" {
			return examined
		}
		req.NextPartitionKey, req.NextRowKey = p.NextPartitionKey, p.NextRowKey
	}
}

// BenchmarkParseFilter parses a filter of 10 comparisons.
func BenchmarkParseFilter(b *testing.B) {
	s := "PartitionKey eq 'p1' and (RowKey ge 'a' and RowKey lt 'b') and (Age gt 30 or Age lt 10L) and " +
		"Born ge datetime'2020-01-01T00:00:00Z' and Id ne guid'0d391d16-97f1-4b9a-be68-4cc871f90001' and " +
		"Score le 2.5e3 and not (Name eq 'x''y') and Active eq true"
	for b.Loop() {
		if _, err := ParseFilter(s); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMatches evaluates a filter of 5 comparisons on one entity.
func BenchmarkMatches(b *testing.B) {
	f, err := ParseFilter("PartitionKey eq 'pk1' and (Age gt 30 or Score ge 2.5) and Name ne 'Bob' and Missing eq 1")
	if err != nil {
		b.Fatal(err)
	}
	e := fixture(b)
	for b.Loop() {
		f.Matches(e)
	}
}

// BenchmarkIndexQuery runs "Grp eq X", which matches 100 entities spread over the table,
// on tables of 10,000 and 1,000,000 entities: without an index (a table scan, every page
// followed to the end) and with one on Grp, which costs about the same at both sizes.
func BenchmarkIndexQuery(b *testing.B) {
	for _, n := range []int{10_000, 1_000_000} {
		for _, indexed := range []bool{false, true} {
			name, plan := fmt.Sprintf("n=%d/scan", n), PlanTableScan
			if indexed {
				name, plan = fmt.Sprintf("n=%d/index", n), "index(Grp) eq"
			}
			b.Run(name, func(b *testing.B) {
				s := benchStore(b, n)
				if indexed {
					benchIndex(b, s, "Grp")
				}
				req := Request{Filter: fmt.Sprintf("Grp eq %d", n/groupSize/2)}
				for b.Loop() {
					if got, ran := queryAll(b, s, req); got != groupSize || ran != plan {
						b.Fatalf("%d entities by %q, want %d by %q", got, ran, groupSize, plan)
					}
				}
				b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "queries/s")
			})
		}
	}
}

// benchIndex declares an index on prop for the benchmark and drops it when it ends.
func benchIndex(b *testing.B, s *core.Store, prop string) {
	start := time.Now()
	if err := s.Update(func(tx *core.Tx) error { return tx.CreateIndex(testTable, prop) }); err != nil {
		b.Fatal(err)
	}
	b.Logf("built the index on %s in %v", prop, time.Since(start))
	b.Cleanup(func() { s.Update(func(tx *core.Tx) error { return tx.DropIndex(testTable, prop) }) })
	runtime.GC()
}

// queryAll follows req's continuations to the end and returns how many entities the
// pages held and the plan of the first page.
func queryAll(b *testing.B, s *core.Store, req Request) (entities int, plan string) {
	for {
		var p *RecordPage
		err := s.View(func(tx *core.Tx) (err error) { p, err = Records(tx, testTable, req); return err })
		if err != nil {
			b.Fatal(err)
		}
		if plan == "" {
			plan = p.Plan
		}
		entities += len(p.Records)
		if p.NextPartitionKey == "" {
			return entities, plan
		}
		req.NextPartitionKey, req.NextRowKey = p.NextPartitionKey, p.NextRowKey
	}
}
