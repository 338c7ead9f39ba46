package query

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/core/stored"
)

func TestFilter_Ranges(t *testing.T) {
	whole := []stored.KeyRange{stored.WholeTable}
	ps, pe := stored.PartitionStart, stored.PartitionEnd
	tests := []struct {
		filter string
		want   []stored.KeyRange
	}{
		{"", whole},
		{"PartitionKey eq 'a'", []stored.KeyRange{stored.PartitionRange("a")}},
		{"'a' eq PartitionKey", []stored.KeyRange{stored.PartitionRange("a")}},
		{"PartitionKey eq 'a' and RowKey ge '1' and RowKey lt '5'", []stored.KeyRange{{From: stored.KeyAt("a", "1"), To: stored.KeyAt("a", "5")}}},
		{"RowKey gt '1' and '5' ge RowKey and PartitionKey eq 'a'", []stored.KeyRange{{From: stored.KeyAfter("a", "1"), To: stored.KeyAfter("a", "5")}}},
		{"RowKey eq '1' and PartitionKey eq 'a'", []stored.KeyRange{stored.PointRange("a", "1")}},
		{"PartitionKey eq 'b' or PartitionKey eq 'a'", []stored.KeyRange{stored.PartitionRange("a"), stored.PartitionRange("b")}},
		{"PartitionKey ge 'a' and PartitionKey lt 'c'", []stored.KeyRange{{From: ps("a"), To: ps("c")}}},
		{"PartitionKey gt 'a' and PartitionKey le 'c'", []stored.KeyRange{{From: pe("a"), To: pe("c")}}},
		{"PartitionKey eq 'a' or PartitionKey ge 'a'", []stored.KeyRange{{From: ps("a"), To: stored.TableEnd}}},
		{"PartitionKey lt 'b' or PartitionKey ge 'b'", whole},
		{"PartitionKey ne 'a'", []stored.KeyRange{{From: stored.TableStart, To: ps("a")}, {From: pe("a"), To: stored.TableEnd}}},
		{"RowKey eq '1'", whole},
		{"Age eq 1", whole},
		{"PartitionKey eq 1", nil},
		{"PartitionKey eq 'a' and RowKey eq 1", nil},
		{"PartitionKey eq 'a' and PartitionKey eq 'b'", nil},
		{"not PartitionKey eq 1", whole},
		{"not (PartitionKey lt 'b')", []stored.KeyRange{{From: ps("b"), To: stored.TableEnd}}},
		{"not (PartitionKey ne 'a' or RowKey ne '1')", []stored.KeyRange{stored.PointRange("a", "1")}},
		{"not not PartitionKey eq 'a'", []stored.KeyRange{stored.PartitionRange("a")}},
		{"PartitionKey eq 'a' and not (RowKey lt '1' or RowKey ge '3')", []stored.KeyRange{{From: stored.KeyAt("a", "1"), To: stored.KeyAt("a", "3")}}},
		{"PartitionKey eq 'a' and (RowKey eq '3' or RowKey eq '1')", []stored.KeyRange{stored.PointRange("a", "1"), stored.PointRange("a", "3")}},
		{"PartitionKey eq 'a' and RowKey ne '1'", []stored.KeyRange{{From: ps("a"), To: stored.KeyAt("a", "1")}, {From: stored.KeyAfter("a", "1"), To: pe("a")}}},
		{"(PartitionKey eq 'b' and RowKey lt '2') or (PartitionKey eq 'a' and RowKey gt '5')",
			[]stored.KeyRange{{From: stored.KeyAfter("a", "5"), To: pe("a")}, {From: ps("b"), To: stored.KeyAt("b", "2")}}},
		{"(PartitionKey eq 'a' and Age gt 1 or PartitionKey eq 'a' and Age lt 0) and RowKey eq '1'", []stored.KeyRange{stored.PointRange("a", "1")}},
		{"PartitionKey eq 'a' and Age gt 3", []stored.KeyRange{stored.PartitionRange("a")}},
		{"PartitionKey eq 'a' or Age gt 3", whole},
		{"true", whole},
		{"false", nil},
		{"not false", whole},
		{"not true", nil},
		{"false or PartitionKey eq 'a'", []stored.KeyRange{stored.PartitionRange("a")}},
		{"true and PartitionKey eq 'a'", []stored.KeyRange{stored.PartitionRange("a")}},
		{"(true and RowKey eq '1') and ((false or PartitionKey eq 'x'))", []stored.KeyRange{stored.PartitionRange("x")}},
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
func inRanges(rs []stored.KeyRange, pk, rk string) bool {
	k := stored.KeyAt(pk, rk)
	for _, r := range rs {
		if r.From <= k && k < r.To {
			return true
		}
	}
	return false
}

// checkRanges fails unless rs are non-empty, disjoint, in order, and hold every entity
// of es that f matches.
func checkRanges(t testing.TB, f *Filter, rs []stored.KeyRange, es []*model.Entity) {
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
		if len(rs) != 1 || rs[0] != stored.WholeTable {
			narrowed++
		}
	}
	if narrowed < 1000 {
		t.Fatalf("only %d of 3000 random filters were narrowed: the test exercises too little", narrowed)
	}
}
