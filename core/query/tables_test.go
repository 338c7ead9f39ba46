package query

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/tabletopdb/tabletop/core"
)

// tableStore returns a store with the named tables.
func tableStore(t testing.TB, names ...string) *core.Store {
	t.Helper()
	s, err := core.Open(core.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	for _, n := range names {
		if _, err := s.CreateTable(n); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

func tablesPage(t testing.TB, s *core.Store, req TablesRequest) (*TablesPage, error) {
	t.Helper()
	var p *TablesPage
	err := s.View(func(tx *core.Tx) (err error) {
		p, err = Tables(tx, req)
		return err
	})
	return p, err
}

func tableNames(ts []*core.Table) []string {
	out := make([]string, len(ts))
	for i, tb := range ts {
		out[i] = tb.Name
	}
	return out
}

func TestTables(t *testing.T) {
	names := []string{"alpha", "Beta", "gamma", "Orders2023", "orders2024", "zeta"}
	s := tableStore(t, names...)
	t.Run("OK", func(t *testing.T) {
		tests := []struct {
			filter string
			want   []string
		}{
			{"", []string{"alpha", "Beta", "gamma", "Orders2023", "orders2024", "zeta"}},
			{"TableName eq 'Beta'", []string{"Beta"}},
			{"TableName eq 'beta'", nil},
			{"TableName ge 'orders' and TableName lt 'orderst'", []string{"orders2024"}},
			{"TableName lt 'a'", []string{"Beta", "Orders2023"}},
			{"not (TableName eq 'zeta') and TableName gt 'f'", []string{"gamma", "orders2024"}},
			{"Name eq 'alpha'", nil},
		}
		for _, tt := range tests {
			p, err := tablesPage(t, s, TablesRequest{Filter: tt.filter})
			if err != nil {
				t.Fatal(err)
			}
			if got := tableNames(p.Tables); !slices.Equal(got, tt.want) || p.NextTableName != "" {
				t.Fatalf("%q: %q, token %q; want %q", tt.filter, got, p.NextTableName, tt.want)
			}
		}
	})
	t.Run("ZeroTop", func(t *testing.T) {
		p, err := tablesPage(t, s, TablesRequest{Top: ZeroTop})
		if err != nil || len(p.Tables) != 0 || p.NextTableName != "" {
			t.Fatalf("page = %+v, %v; want no tables and no continuation", p, err)
		}
	})
	t.Run("ResumeAfterDeleted", func(t *testing.T) {
		s := tableStore(t, "aaa", "bbb", "ccc", "ddd")
		p, err := tablesPage(t, s, TablesRequest{Top: 2})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.DeleteTable("bbb"); err != nil {
			t.Fatal(err)
		}
		if err := s.DeleteTable("ccc"); err != nil {
			t.Fatal(err)
		}
		p, err = tablesPage(t, s, TablesRequest{NextTableName: p.NextTableName})
		if err != nil {
			t.Fatal(err)
		}
		if got := tableNames(p.Tables); !slices.Equal(got, []string{"ddd"}) {
			t.Fatalf("resumed page = %q", got)
		}
	})
	t.Run("ErrTokenInvalid", func(t *testing.T) {
		pk, _ := EncodeContinuation("alpha", "")
		for _, tok := range []string{"alpha", pk, EncodeTableToken("a"), EncodeTableToken("tables")} {
			if _, err := tablesPage(t, s, TablesRequest{NextTableName: tok}); !errors.Is(err, ErrTokenInvalid) {
				t.Fatalf("token %q: %v, want ErrTokenInvalid", tok, err)
			}
		}
	})
	t.Run("ErrTopInvalid", func(t *testing.T) {
		if _, err := tablesPage(t, s, TablesRequest{Top: 1001}); !errors.Is(err, ErrTopInvalid) {
			t.Fatalf("%v, want ErrTopInvalid", err)
		}
	})
	t.Run("ErrFilterSyntax", func(t *testing.T) {
		if _, err := tablesPage(t, s, TablesRequest{Filter: "TableName eq"}); !errors.Is(err, ErrFilterSyntax) {
			t.Fatalf("%v, want ErrFilterSyntax", err)
		}
	})
}

// TestTables_Paging pages Query Tables with every $top and tiny budgets: the pages
// together hold the whole result, in order, once.
func TestTables_Paging(t *testing.T) {
	names := []string{"alpha", "Beta", "gamma", "Orders2023", "orders2024", "zeta"}
	s := tableStore(t, names...)
	for _, filter := range []string{"", "TableName ne 'gamma'", "TableName gt 'a'"} {
		for top := 1; top <= len(names)+1; top++ {
			for _, b := range []Budget{{}, {Examined: 1}, {Examined: 2}} {
				var all []*core.Table
				req := TablesRequest{Filter: filter, Top: top, Budget: b}
				for i := 0; ; i++ {
					p, err := tablesPage(t, s, req)
					if err != nil || i > 100 || len(p.Tables) > top {
						t.Fatalf("%q top %d: page %d: %v", filter, top, i, err)
					}
					all = append(all, p.Tables...)
					if p.NextTableName == "" {
						break
					}
					req.NextTableName = p.NextTableName
				}
				if got, w := tableNames(all), wantTables(t, filter, names); !slices.Equal(got, w) {
					t.Fatalf("%q top %d %+v: pages hold %q, want %q", filter, top, b, got, w)
				}
			}
		}
	}
}

// wantTables returns the names filter matches, in order of lowercase name.
func wantTables(t *testing.T, filter string, names []string) []string {
	f, err := ParseFilter(filter)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, n := range names {
		if f.MatchesTable(&core.Table{Name: n}) {
			out = append(out, n)
		}
	}
	slices.SortFunc(out, func(a, b string) int { return strings.Compare(strings.ToLower(a), strings.ToLower(b)) })
	return out
}
