package query

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/core/stored"
)

const testTable = "things"

// newStore returns a store with table testTable holding es.
func newStore(t testing.TB, es ...*model.Entity) *core.Store {
	t.Helper()
	s, err := core.Open(core.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	err = s.Update(func(tx *core.Tx) error {
		if _, err := tx.CreateTable(testTable); err != nil {
			return err
		}
		for _, e := range es {
			if _, err := tx.Apply(testTable, core.Op{Kind: core.OpInsert, Entity: e}); err != nil {
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

// entity returns an entity with an Int32 property N.
func entity(pk, rk string, n int) *model.Entity {
	e := &model.Entity{PartitionKey: pk, RowKey: rk}
	e.Set("N", model.Int32Value(int32(n)))
	return e
}

// grid returns entities in partitions p0..p5 of 1, 2, 13, 0, 7, 10 rows: 33 in all.
func grid() []*model.Entity {
	var es []*model.Entity
	n := 0
	for p, rows := range []int{1, 2, 13, 0, 7, 10} {
		for r := range rows {
			es = append(es, entity(fmt.Sprintf("p%d", p), fmt.Sprintf("r%02d", r), n))
			n++
		}
	}
	return es
}

// page runs one page in its own read transaction.
func page(t testing.TB, s *core.Store, req Request) *Page {
	t.Helper()
	var p *Page
	err := s.View(func(tx *core.Tx) (err error) {
		p, err = Entities(tx, testTable, req)
		return err
	})
	if err != nil {
		t.Fatalf("Entities(%+v): %v", req, err)
	}
	return p
}

// pageAll follows the continuations of req to the end, calling between (if set) after
// each page, and returns every entity returned.
func pageAll(t testing.TB, s *core.Store, req Request, between func(p *Page)) []*model.Entity {
	t.Helper()
	var all []*model.Entity
	for i := 0; ; i++ {
		if i > 100_000 {
			t.Fatal("paging does not end")
		}
		p := page(t, s, req)
		if len(p.Entities) > req.Top && req.Top > 0 || len(p.Entities) > MaxTop {
			t.Fatalf("page of %d entities for $top %d", len(p.Entities), req.Top)
		}
		all = append(all, p.Entities...)
		if between != nil {
			between(p)
		}
		if p.NextPartitionKey == "" && p.NextRowKey == "" {
			return all
		}
		req.NextPartitionKey, req.NextRowKey = p.NextPartitionKey, p.NextRowKey
	}
}

// keys returns "pk/rk" for each entity.
func keys(es []*model.Entity) []string {
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = e.PartitionKey + "/" + e.RowKey
	}
	return out
}

// want returns the keys of the entities of es that filter matches, in key order.
func want(t testing.TB, filter string, es []*model.Entity) []string {
	t.Helper()
	f, err := ParseFilter(filter)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range es {
		if f.Matches(e) {
			out = append(out, e.PartitionKey+"/"+e.RowKey)
		}
	}
	slices.Sort(out)
	return out
}

var pagingFilters = []string{
	"",
	"PartitionKey eq 'p2'",
	"PartitionKey eq 'p3'",
	"PartitionKey eq 'p1' or PartitionKey eq 'p4' or PartitionKey eq 'p0'",
	"PartitionKey eq 'p2' and RowKey ge 'r03' and RowKey lt 'r11'",
	"PartitionKey eq 'p5' and (RowKey lt 'r02' or RowKey gt 'r07')",
	"PartitionKey ge 'p2' and PartitionKey lt 'p5'",
	"N gt 20",
	"N lt 3 or N ge 30",
	"PartitionKey ne 'p2' and N ne 4",
	"not (PartitionKey eq 'p2')",
	"N eq 1000",
}

// TestEntities_Paging pages every filter with every $top from 1 past the result size, so
// a page boundary falls at every position: the union of the pages must be the full
// result, in order, without repeats.
func TestEntities_Paging(t *testing.T) {
	es := grid()
	s := newStore(t, es...)
	for _, filter := range pagingFilters {
		w := want(t, filter, es)
		for top := 0; top <= len(w)+1; top++ {
			t.Run(fmt.Sprintf("%s/top=%d", filter, top), func(t *testing.T) {
				got := keys(pageAll(t, s, Request{Filter: filter, Top: top}, nil))
				if !slices.Equal(got, w) {
					t.Fatalf("pages hold %q, want %q", got, w)
				}
			})
		}
	}
}

// TestEntities_Budget ends pages early on tiny budgets: pages may be short or empty, but
// together they still hold the full result once.
func TestEntities_Budget(t *testing.T) {
	es := grid()
	s := newStore(t, es...)
	for _, filter := range pagingFilters {
		w := want(t, filter, es)
		for _, b := range []Budget{{Examined: 1}, {Examined: 2}, {Examined: 5}, {Bytes: 1}, {Bytes: 40}} {
			t.Run(fmt.Sprintf("%s/%+v", filter, b), func(t *testing.T) {
				got := keys(pageAll(t, s, Request{Filter: filter, Top: 3, Budget: b}, nil))
				if !slices.Equal(got, w) {
					t.Fatalf("pages hold %q, want %q", got, w)
				}
			})
		}
	}
	t.Run("EmptyPage", func(t *testing.T) {
		p := page(t, s, Request{Filter: "N eq 32", Budget: Budget{Examined: 3}})
		if len(p.Entities) != 0 || p.NextPartitionKey == "" || p.Examined != 3 {
			t.Fatalf("page = %d entities, token %q, examined %d; want an empty page with a token", len(p.Entities), p.NextPartitionKey, p.Examined)
		}
	})
}

func TestEntities(t *testing.T) {
	es := grid()
	s := newStore(t, es...)
	t.Run("OK", func(t *testing.T) {
		p := page(t, s, Request{Filter: "PartitionKey eq 'p2' and RowKey gt 'r10'"})
		if got := keys(p.Entities); !slices.Equal(got, []string{"p2/r11", "p2/r12"}) || p.NextPartitionKey != "" {
			t.Fatalf("page = %q, token %q", got, p.NextPartitionKey)
		}
		if p.Entities[0].Timestamp == 0 || p.Examined != 2 {
			t.Fatalf("Timestamp %v, Examined %d", p.Entities[0].Timestamp, p.Examined)
		}
	})
	t.Run("KeyBoundedReadsOnlyItsRanges", func(t *testing.T) {
		p := page(t, s, Request{Filter: "PartitionKey eq 'p4' or PartitionKey eq 'p1' and RowKey eq 'r01'"})
		if len(p.Entities) != 8 || p.Examined != 8 {
			t.Fatalf("%d entities from %d examined, want 8 from 8", len(p.Entities), p.Examined)
		}
	})
	t.Run("Top", func(t *testing.T) {
		p := page(t, s, Request{Top: 4})
		if got := keys(p.Entities); !slices.Equal(got, []string{"p0/r00", "p1/r00", "p1/r01", "p2/r00"}) {
			t.Fatalf("page = %q", got)
		}
		pk, rk, ok, err := DecodeContinuation(p.NextPartitionKey, p.NextRowKey)
		if err != nil || !ok || pk != "p2" || rk != "r00" {
			t.Fatalf("continuation = %q %q %v %v; want after p2/r00", pk, rk, ok, err)
		}
	})
	t.Run("ZeroTop", func(t *testing.T) {
		p := page(t, s, Request{Top: ZeroTop})
		if len(p.Entities) != 0 || p.NextPartitionKey != "" || p.NextRowKey != "" {
			t.Fatalf("page = %+v; want no entities and no continuation", p)
		}
		err := s.View(func(tx *core.Tx) error { _, err := Entities(tx, "nothere", Request{Top: ZeroTop}); return err })
		if !errors.Is(err, core.ErrTableNotFound) {
			t.Fatalf("missing table: %v, want core.ErrTableNotFound", err)
		}
		err = s.View(func(tx *core.Tx) error {
			_, err := Entities(tx, testTable, Request{Top: ZeroTop, Filter: "N eq"})
			return err
		})
		if !errors.Is(err, ErrFilterSyntax) {
			t.Fatalf("bad filter: %v, want ErrFilterSyntax", err)
		}
	})
	t.Run("FullPageAtEndHasNoToken", func(t *testing.T) {
		p := page(t, s, Request{Filter: "PartitionKey eq 'p1'", Top: 2})
		if len(p.Entities) != 2 || p.NextPartitionKey != "" || p.NextRowKey != "" {
			t.Fatalf("page = %q, tokens %q %q", keys(p.Entities), p.NextPartitionKey, p.NextRowKey)
		}
	})
	t.Run("NoRange", func(t *testing.T) {
		p := page(t, s, Request{Filter: "PartitionKey eq 5"})
		if len(p.Entities) != 0 || p.Examined != 0 || p.NextPartitionKey != "" {
			t.Fatalf("page = %+v", p)
		}
	})
	t.Run("ErrTopInvalid", func(t *testing.T) {
		for _, top := range []int{-2, MaxTop + 1} {
			err := s.View(func(tx *core.Tx) error { _, err := Entities(tx, testTable, Request{Top: top}); return err })
			if !errors.Is(err, ErrTopInvalid) {
				t.Fatalf("Top %d: %v, want ErrTopInvalid", top, err)
			}
		}
	})
	t.Run("ErrTokenInvalid", func(t *testing.T) {
		pk, rk := EncodeContinuation("p1", "r00")
		for _, req := range []Request{{NextPartitionKey: pk}, {NextRowKey: rk}, {NextPartitionKey: "p1", NextRowKey: "r00"}, {NextPartitionKey: rk, NextRowKey: pk}} {
			err := s.View(func(tx *core.Tx) error { _, err := Entities(tx, testTable, req); return err })
			if !errors.Is(err, ErrTokenInvalid) {
				t.Fatalf("%+v: %v, want ErrTokenInvalid", req, err)
			}
		}
	})
	t.Run("ErrFilterSyntax", func(t *testing.T) {
		err := s.View(func(tx *core.Tx) error { _, err := Entities(tx, testTable, Request{Filter: "N eq"}); return err })
		if !errors.Is(err, ErrFilterSyntax) {
			t.Fatalf("%v, want ErrFilterSyntax", err)
		}
	})
	t.Run("ErrTableNotFound", func(t *testing.T) {
		for _, filter := range []string{"", "PartitionKey eq 5"} {
			err := s.View(func(tx *core.Tx) error { _, err := Entities(tx, "nothere", Request{Filter: filter}); return err })
			if !errors.Is(err, core.ErrTableNotFound) {
				t.Fatalf("%q: %v, want core.ErrTableNotFound", filter, err)
			}
		}
	})
}

// TestEntities_ResumeAfterDeleted resumes from a token whose entity, and the one after
// it, were deleted: the next page starts at the first entity after that position.
func TestEntities_ResumeAfterDeleted(t *testing.T) {
	s := newStore(t, grid()...)
	p := page(t, s, Request{Filter: "PartitionKey eq 'p2'", Top: 3})
	if got := keys(p.Entities); !slices.Equal(got, []string{"p2/r00", "p2/r01", "p2/r02"}) {
		t.Fatalf("first page = %q", got)
	}
	for _, rk := range []string{"r02", "r03"} {
		if _, err := s.Apply(testTable, core.Op{Kind: core.OpDelete, Entity: &model.Entity{PartitionKey: "p2", RowKey: rk}}); err != nil {
			t.Fatal(err)
		}
	}
	p = page(t, s, Request{Filter: "PartitionKey eq 'p2'", Top: 3, NextPartitionKey: p.NextPartitionKey, NextRowKey: p.NextRowKey})
	if got := keys(p.Entities); !slices.Equal(got, []string{"p2/r04", "p2/r05", "p2/r06"}) {
		t.Fatalf("resumed page = %q", got)
	}
	pk, rk := EncodeContinuation("p2", "r055")
	p = page(t, s, Request{Top: 1, NextPartitionKey: pk, NextRowKey: rk})
	if got := keys(p.Entities); !slices.Equal(got, []string{"p2/r06"}) {
		t.Fatalf("page after a position that never existed = %q", got)
	}
}

func TestEntities_Within(t *testing.T) {
	s := newStore(t, grid()...)
	t.Run("OK", func(t *testing.T) {
		// A SAS-style range: from (p2, r05) up to and including all of p4.
		r := stored.KeyRange{From: stored.KeyAt("p2", "r05"), To: stored.PartitionEnd("p4")}
		got := pageAll(t, s, Request{Within: r, Top: 3}, nil)
		var wantKeys []string
		for _, e := range grid() {
			if k := stored.KeyAt(e.PartitionKey, e.RowKey); k >= r.From && k < r.To {
				wantKeys = append(wantKeys, e.PartitionKey+"/"+e.RowKey)
			}
		}
		if !slices.Equal(keys(got), wantKeys) {
			t.Fatalf("got %v\nwant %v", keys(got), wantKeys)
		}
	})
	t.Run("ReadsOnlyTheRange", func(t *testing.T) {
		p := page(t, s, Request{Within: stored.PartitionRange("p5")})
		if len(p.Entities) != 10 || p.Examined != 10 {
			t.Fatalf("got %d entities, examined %d; want 10 and 10", len(p.Entities), p.Examined)
		}
	})
	t.Run("IntersectsTheFilter", func(t *testing.T) {
		p := page(t, s, Request{Filter: "PartitionKey eq 'p1'", Within: stored.PartitionRange("p5")})
		if len(p.Entities) != 0 || p.Examined != 0 {
			t.Fatalf("got %d entities, examined %d; want none", len(p.Entities), p.Examined)
		}
	})
}
