package query

import (
	"fmt"
	"math"
	"slices"
	"sync"
	"testing"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/core/stored"
)

// indexStore returns a store with table testTable holding es, indexed on props.
func indexStore(t testing.TB, es []*model.Entity, props ...string) *core.Store {
	t.Helper()
	s := newStore(t, es...)
	err := s.Update(func(tx *core.Tx) error {
		for _, p := range props {
			if err := tx.CreateIndex(testTable, p); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// allPages runs a query to its end and returns the keys of every entity, the plan of
// its first page and the number of pages.
func allPages(t testing.TB, s *core.Store, req Request) (keys []string, plan string, pages int) {
	t.Helper()
	for {
		var rp *RecordPage
		err := s.View(func(tx *core.Tx) (err error) { rp, err = Records(tx, testTable, req); return err })
		if err != nil {
			t.Fatalf("%q: %v", req.Filter, err)
		}
		if pages == 0 {
			plan = rp.Plan
		}
		pages++
		for _, r := range rp.Records {
			keys = append(keys, r.PartitionKey+"/"+r.RowKey)
		}
		if rp.NextPartitionKey == "" && rp.NextRowKey == "" {
			return keys, plan, pages
		}
		if pages > 10_000 {
			t.Fatalf("%q: no end of pages", req.Filter)
		}
		req.NextPartitionKey, req.NextRowKey = rp.NextPartitionKey, rp.NextRowKey
	}
}

// matching returns the keys of the entities of es (in key order) that the filter
// matches, by the full evaluator.
func matching(t testing.TB, es []*model.Entity, filter string) []string {
	t.Helper()
	f, err := ParseFilter(filter)
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, e := range es {
		if f.Matches(e) {
			keys = append(keys, e.PartitionKey+"/"+e.RowKey)
		}
	}
	slices.Sort(keys)
	return slices.Compact(keys)
}

// shop returns 200 entities over 10 partitions with N (Int32, or Int64 or Double for
// some), Color (String) and, for some, Big (Int64 around 2^53).
func shop() []*model.Entity {
	var es []*model.Entity
	colors := []string{"red", "green", "blue", "red\x00x"}
	for i := range 200 {
		e := entity(fmt.Sprintf("p%d", i%10), fmt.Sprintf("r%03d", i), i%20)
		switch i % 7 {
		case 3:
			e.Set("N", model.Int64Value(int64(i%20)))
		case 5:
			e.Set("N", model.DoubleValue(float64(i%20)+0.5*float64(i%2)))
		}
		e.Set("Color", model.StringValue(colors[i%4]))
		if i%9 == 0 {
			e.Set("Big", model.Int64Value(1<<53+int64(i/9%3)))
		}
		es = append(es, e)
	}
	return es
}

func TestRecords_IndexPlan(t *testing.T) {
	es := shop()
	s := indexStore(t, es, "N", "Color", "Big")
	plain := newStore(t, es...)
	cases := []struct{ filter, plan string }{
		{"N eq 5", "index(N) eq"},
		{"N eq 5.0", "index(N) eq"},
		{"N eq 5L", "index(N) eq"},
		{"N eq 5.5", "index(N) eq"},
		{"N gt 17", "index(N) range"},
		{"N ge 17.5 and N lt 19", "index(N) range and index(N) range"},
		{"18 le N", "index(N) range"},
		{"Color eq 'red'", "index(Color) eq"},
		{"Color gt 'red'", "index(Color) range"},
		{"Color eq 'red' and N eq 4", "index(Color) eq and index(N) eq"},
		{"Color eq 'blue' and Size eq 3", "index(Color) eq"},
		{"N eq 1 or Color eq 'green'", "index(N) eq or index(Color) eq"},
		{"(N eq 1 or N eq 2) and Color ne 'red'", "index(N) eq or index(N) eq"},
		{"Big eq 9007199254740993L", "index(Big) eq"},
		{"Big gt 9007199254740992L", "index(Big) range"},
		{"Big le 9007199254740992.0", "index(Big) range"},
		{"Big lt 9007199254740993L", "index(Big) range"},
		{"N eq 3 and false", "empty"},
		{"N eq 3 or false", "index(N) eq or empty"},
		{"N eq 'x'", "index(N) eq"},
		{"N eq 1 and PartitionKey gt 'p5'", "index(N) eq"},
		{"N eq 1 and PartitionKey eq 'p1'", PlanPartitionScan},
		{"N ne 1", PlanTableScan},
		{"not (N eq 1)", PlanTableScan},
		{"N eq 1 or Size eq 2", PlanTableScan},
		{"Size eq 2", PlanTableScan},
		{"PartitionKey ge 'p5'", PlanKeyRangeScan},
		{"PartitionKey eq 1", PlanEmpty},
	}
	t.Run("OK/ZeroTop", func(t *testing.T) {
		if _, plan, _ := allPages(t, s, Request{Filter: "N eq 5", Top: ZeroTop}); plan != PlanEmpty {
			t.Fatalf("plan %q", plan)
		}
	})
	for _, c := range cases {
		t.Run("OK/"+c.filter, func(t *testing.T) {
			want := matching(t, es, c.filter)
			for _, top := range []int{0, 1, 3} {
				got, plan, _ := allPages(t, s, Request{Filter: c.filter, Top: top})
				if plan != c.plan {
					t.Fatalf("plan %q, want %q", plan, c.plan)
				}
				if !slices.Equal(got, want) {
					t.Fatalf("$top=%d: %v, want %v", top, got, want)
				}
				scanned, _, _ := allPages(t, plain, Request{Filter: c.filter, Top: top})
				if !slices.Equal(scanned, want) {
					t.Fatalf("$top=%d without index: %v, want %v", top, scanned, want)
				}
			}
		})
	}
}

func TestRecords_IndexWithinAndContinuation(t *testing.T) {
	es := shop()
	s := indexStore(t, es, "N")
	t.Run("OK/Within", func(t *testing.T) {
		within := stored.KeyRange{From: stored.PartitionStart("p2"), To: stored.PartitionEnd("p4")}
		got, plan, _ := allPages(t, s, Request{Filter: "N eq 2", Within: within})
		var want []string
		for _, k := range matching(t, es, "N eq 2") {
			if k >= "p2/" && k < "p5" {
				want = append(want, k)
			}
		}
		if plan != "index(N) eq" || !slices.Equal(got, want) {
			t.Fatalf("%s: %v, want %v", plan, got, want)
		}
	})
	t.Run("OK/ContinuationOfDeletedEntity", func(t *testing.T) {
		// resume after an entity that has since been deleted: the next page starts after it
		first := matching(t, es, "N eq 2")
		pk, rk := "p2", "r002"
		if first[0] != pk+"/"+rk {
			t.Fatalf("fixture: first match %s", first[0])
		}
		s.Apply(testTable, core.Op{Kind: core.OpDelete, Entity: &model.Entity{PartitionKey: pk, RowKey: rk}})
		nextPK, nextRK := EncodeContinuation(pk, rk)
		got, _, _ := allPages(t, s, Request{Filter: "N eq 2", NextPartitionKey: nextPK, NextRowKey: nextRK})
		if !slices.Equal(got, first[1:]) {
			t.Fatalf("%v, want %v", got, first[1:])
		}
	})
}

func TestRecords_IndexOverLimit(t *testing.T) {
	es := shop()
	s := indexStore(t, es, "N", "Color")
	t.Run("OK/ScanInstead", func(t *testing.T) {
		req := Request{Filter: "Color eq 'red'", Budget: Budget{Examined: 20}}
		got, plan, pages := allPages(t, s, req)
		if plan != PlanTableScan+" (index over limit: index(Color) eq)" {
			t.Fatalf("plan %q", plan)
		}
		if want := matching(t, es, req.Filter); !slices.Equal(got, want) || pages < 10 {
			t.Fatalf("%d pages: %v, want %v", pages, got, want)
		}
	})
	t.Run("OK/IntersectionKeepsTheSelectivePart", func(t *testing.T) {
		req := Request{Filter: "Color eq 'red' and N eq 4", Budget: Budget{Examined: 20}}
		got, plan, _ := allPages(t, s, req)
		if plan != "index(Color) eq and index(N) eq" {
			t.Fatalf("plan %q", plan)
		}
		if want := matching(t, es, req.Filter); !slices.Equal(got, want) {
			t.Fatalf("%v, want %v", got, want)
		}
	})
}

// FuzzIndexPlan checks that a query answered from indexes returns exactly what the full
// evaluator matches, page after page, for fuzzed filters and tables, some properties
// indexed and some not, and budgets small enough to end pages early or to leave an
// index for a scan.
func FuzzIndexPlan(f *testing.F) {
	extra := []string{"Age ge 3 and Age lt 40", "Score gt 2.5 or Name eq 'b'", "Big eq 9007199254740993L", "Big ge 9007199254740992.0", "Big gt 9007199254740992L", "Big lt 9007199254740993L",
		"Active eq true and Age ne 3", "Name lt 'b' or Blob gt X'00'", "Id eq guid'00000000-0000-0000-0000-000000000000' or Born le datetime'1990-01-02T03:04:05.1234567Z'",
		"not (Age eq 3) and Age le 50", "(Age eq 1 or Age eq 2) and (Score ge 30 or Name ge 'a')"}
	for i, s := range append(filterSeeds, extra...) {
		f.Add(s, []byte(fmt.Sprintf("%c%c%c%0200d", i, i*7, i*13, i*7919)))
	}
	f.Fuzz(func(t *testing.T, filter string, data []byte) {
		if _, err := ParseFilter(filter); err != nil || len(data) < 3 {
			return
		}
		es := fuzzTable(data[3:])
		var props []string
		for i, name := range fuzzNames {
			if data[0]>>(i%8)&1 == 0 || i >= 8 {
				props = append(props, name)
			}
		}
		s, err := core.Open(core.Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		err = s.Update(func(tx *core.Tx) error {
			tx.CreateTable(testTable)
			for i, e := range es {
				if i == len(es)/2 { // half the entities indexed as written, half as built
					for _, p := range props {
						if err := tx.CreateIndex(testTable, p); err != nil {
							return err
						}
					}
				}
				if _, err := tx.Apply(testTable, core.Op{Kind: core.OpInsertOrReplace, Entity: e}); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.View(func(tx *core.Tx) error { return tx.CheckIndexes(testTable) }); err != nil {
			t.Fatal(err)
		}
		req := Request{Filter: filter, Top: int(data[1] % 5), Budget: Budget{Examined: []int{0, 2, 7}[data[2]%3]}}
		got, plan, _ := allPages(t, s, req)
		var written []*model.Entity // as written, with the store's Timestamps
		s.View(func(tx *core.Tx) error {
			return tx.Scan(testTable, stored.WholeTable, func(e *model.Entity) bool { written = append(written, e); return true })
		})
		if want := matching(t, written, filter); !slices.Equal(got, want) {
			t.Fatalf("%q (%s, indexes %v): %v, want %v", filter, plan, props, got, want)
		}
	})
}

// fuzzTable builds up to 24 entities from fuzz bytes, 12 bytes each, and a few with
// Int64 and Double values around 2^53, where numbers round in the index.
func fuzzTable(data []byte) []*model.Entity {
	var es []*model.Entity
	for len(data) > 0 && len(es) < 24 {
		n := min(12, len(data))
		es = append(es, fuzzEntity(data[:n]))
		data = data[n:]
	}
	for i, v := range []model.Value{model.Int64Value(1<<53 + 1), model.Int64Value(1 << 53), model.DoubleValue(1 << 53), model.DoubleValue(math.NaN())} {
		es = append(es, &model.Entity{PartitionKey: "big", RowKey: fmt.Sprint(i), Properties: []model.Property{{Name: "Big", Value: v}}})
	}
	return es
}

// TestRecords_IndexConcurrent runs indexed queries from several goroutines at once, so
// that the candidate slices they reuse (and the race detector) would show any sharing.
func TestRecords_IndexConcurrent(t *testing.T) {
	es := shop()
	s := indexStore(t, es, "N", "Color")
	filters := []string{"N eq 3", "N ge 15 and Color eq 'red'", "N lt 2 or Color eq 'blue'", "Color gt 'green'"}
	want := make([][]string, len(filters))
	for i, f := range filters {
		want[i] = matching(t, es, f)
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 50 {
				k := (g + i) % len(filters)
				got, _, _ := allPages(t, s, Request{Filter: filters[k], Top: 1 + i%7})
				if !slices.Equal(got, want[k]) {
					t.Errorf("%q: %v, want %v", filters[k], got, want[k])
					return
				}
			}
		}()
	}
	wg.Wait()
}
