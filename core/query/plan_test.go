package query

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/model"
)

func TestFilter_Ranges(t *testing.T) {
	whole := []core.KeyRange{core.WholeTable}
	ps, pe := core.PartitionStart, core.PartitionEnd
	tests := []struct {
		filter string
		want   []core.KeyRange
	}{
		{"", whole},
		{"PartitionKey eq 'a'", []core.KeyRange{core.PartitionRange("a")}},
		{"'a' eq PartitionKey", []core.KeyRange{core.PartitionRange("a")}},
		{"PartitionKey eq 'a' and RowKey ge '1' and RowKey lt '5'", []core.KeyRange{{From: core.KeyAt("a", "1"), To: core.KeyAt("a", "5")}}},
		{"RowKey gt '1' and '5' ge RowKey and PartitionKey eq 'a'", []core.KeyRange{{From: core.KeyAfter("a", "1"), To: core.KeyAfter("a", "5")}}},
		{"RowKey eq '1' and PartitionKey eq 'a'", []core.KeyRange{core.PointRange("a", "1")}},
		{"PartitionKey eq 'b' or PartitionKey eq 'a'", []core.KeyRange{core.PartitionRange("a"), core.PartitionRange("b")}},
		{"PartitionKey ge 'a' and PartitionKey lt 'c'", []core.KeyRange{{From: ps("a"), To: ps("c")}}},
		{"PartitionKey gt 'a' and PartitionKey le 'c'", []core.KeyRange{{From: pe("a"), To: pe("c")}}},
		{"PartitionKey eq 'a' or PartitionKey ge 'a'", []core.KeyRange{{From: ps("a"), To: core.TableEnd}}},
		{"PartitionKey lt 'b' or PartitionKey ge 'b'", whole},
		{"PartitionKey ne 'a'", []core.KeyRange{{From: core.TableStart, To: ps("a")}, {From: pe("a"), To: core.TableEnd}}},
		{"RowKey eq '1'", whole},
		{"Age eq 1", whole},
		{"PartitionKey eq 1", nil},
		{"PartitionKey eq 'a' and RowKey eq 1", nil},
		{"PartitionKey eq 'a' and PartitionKey eq 'b'", nil},
		{"not PartitionKey eq 1", whole},
		{"not (PartitionKey lt 'b')", []core.KeyRange{{From: ps("b"), To: core.TableEnd}}},
		{"not (PartitionKey ne 'a' or RowKey ne '1')", []core.KeyRange{core.PointRange("a", "1")}},
		{"not not PartitionKey eq 'a'", []core.KeyRange{core.PartitionRange("a")}},
		{"PartitionKey eq 'a' and not (RowKey lt '1' or RowKey ge '3')", []core.KeyRange{{From: core.KeyAt("a", "1"), To: core.KeyAt("a", "3")}}},
		{"PartitionKey eq 'a' and (RowKey eq '3' or RowKey eq '1')", []core.KeyRange{core.PointRange("a", "1"), core.PointRange("a", "3")}},
		{"PartitionKey eq 'a' and RowKey ne '1'", []core.KeyRange{{From: ps("a"), To: core.KeyAt("a", "1")}, {From: core.KeyAfter("a", "1"), To: pe("a")}}},
		{"(PartitionKey eq 'b' and RowKey lt '2') or (PartitionKey eq 'a' and RowKey gt '5')",
			[]core.KeyRange{{From: core.KeyAfter("a", "5"), To: pe("a")}, {From: ps("b"), To: core.KeyAt("b", "2")}}},
		{"(PartitionKey eq 'a' and Age gt 1 or PartitionKey eq 'a' and Age lt 0) and RowKey eq '1'", []core.KeyRange{core.PointRange("a", "1")}},
		{"PartitionKey eq 'a' and Age gt 3", []core.KeyRange{core.PartitionRange("a")}},
		{"PartitionKey eq 'a' or Age gt 3", whole},
		{"true", whole},
		{"false", nil},
		{"not false", whole},
		{"not true", nil},
		{"false or PartitionKey eq 'a'", []core.KeyRange{core.PartitionRange("a")}},
		{"true and PartitionKey eq 'a'", []core.KeyRange{core.PartitionRange("a")}},
		{"(true and RowKey eq '1') and ((false or PartitionKey eq 'x'))", []core.KeyRange{core.PartitionRange("x")}},
		{"PartitionKey eq 'a\x00b'", whole},
		{"PartitionKey eq 'a\x00b' and RowKey eq '1'", whole},
	}
	for _, tt := range tests {
		t.Run(tt.filter, func(t *testing.T) {
			f, err := ParseFilter(tt.filter)
			if err != nil {
				t.Fatal(err)
			}
			if got := f.Ranges(); !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("Ranges() = %q, want %q", got, tt.want)
			}
		})
	}
}

// inRanges reports whether entity (pk, rk) lies in one of rs.
func inRanges(rs []core.KeyRange, pk, rk string) bool {
	k := core.KeyAt(pk, rk)
	for _, r := range rs {
		if r.From <= k && k < r.To {
			return true
		}
	}
	return false
}

// checkRanges fails unless rs are non-empty, disjoint, in order, and hold every entity
// of es that f matches.
func checkRanges(t testing.TB, f *Filter, rs []core.KeyRange, es []*model.Entity) {
	t.Helper()
	for i, r := range rs {
		if r.Empty() || i > 0 && rs[i-1].To >= r.From {
			t.Fatalf("filter %s: ranges %q are not disjoint, non-empty and in order", f, rs)
		}
	}
	for _, e := range es {
		if f.Matches(e) && !inRanges(rs, e.PartitionKey, e.RowKey) {
			t.Fatalf("filter %s matches (%q, %q) outside its ranges %q", f, e.PartitionKey, e.RowKey, rs)
		}
	}
}

// sampleKeys returns entities over a small key alphabet, so random filters hit them.
func sampleKeys() []*model.Entity {
	keys := []string{"", "a", "a ", "aa", "ab", "b", "ba", "é", "z"}
	var es []*model.Entity
	for i, pk := range keys {
		for j, rk := range keys {
			e := &model.Entity{PartitionKey: pk, RowKey: rk}
			e.Set("N", model.Int32Value(int32(i*len(keys)+j)))
			es = append(es, e)
		}
	}
	return es
}

// randomFilter returns a random filter of at most n comparisons on the keys and N.
func randomFilter(r *rand.Rand, n int) string {
	if n <= 1 || r.IntN(3) == 0 {
		props := []string{"PartitionKey", "RowKey", "PartitionKey", "RowKey", "N"}
		lits := []string{"''", "'a'", "'aa'", "'ab'", "'b'", "'a '", "'é'", "'c'", "5", "40L"}
		ops := []string{"eq", "ne", "gt", "ge", "lt", "le"}
		c := fmt.Sprintf("%s %s %s", props[r.IntN(len(props))], ops[r.IntN(len(ops))], lits[r.IntN(len(lits))])
		if r.IntN(4) == 0 {
			return "not " + c
		}
		return c
	}
	k := 1 + r.IntN(n-1)
	op := []string{"and", "or"}[r.IntN(2)]
	s := "(" + randomFilter(r, k) + " " + op + " " + randomFilter(r, n-k) + ")"
	if r.IntN(5) == 0 {
		return "not " + s
	}
	return s
}

// TestFilter_RangesHoldMatches checks on random filters that planning never loses a match.
func TestFilter_RangesHoldMatches(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	es := sampleKeys()
	narrowed := 0
	for range 3000 {
		s := randomFilter(r, 1+r.IntN(MaxComparisons))
		f, err := ParseFilter(s)
		if err != nil {
			t.Fatalf("ParseFilter(%q): %v", s, err)
		}
		rs := f.Ranges()
		checkRanges(t, f, rs, es)
		if len(rs) != 1 || rs[0] != core.WholeTable {
			narrowed++
		}
	}
	if narrowed < 1000 {
		t.Fatalf("only %d of 3000 random filters were narrowed: the test exercises too little", narrowed)
	}
}
