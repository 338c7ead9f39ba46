package query

import (
	"slices"
	"strings"

	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/core/stored"
)

// Ranges returns the key ranges that hold every entity the filter can match: disjoint,
// non-empty and in key order. A query reads only these and tests each entity read with
// Matches. The ranges come from comparisons of PartitionKey (with any operator), of
// RowKey (inside a partition fixed by "PartitionKey eq"), and their and, or and not; any
// other comparison bounds nothing. The nil filter gives the whole table; a filter that
// can match nothing, such as "PartitionKey eq 1", gives no range.
func (f *Filter) Ranges() []stored.KeyRange {
	if f == nil {
		return []stored.KeyRange{stored.WholeTable}
	}
	return plan(f.root, false, nil)
}

// plan returns the ranges of n, or of "not n" when neg is set. part is the partition that
// an enclosing conjunction fixes, if any.
func plan(n node, neg bool, part *string) []stored.KeyRange {
	switch n := n.(type) {
	case *notNode:
		return plan(n.x, !neg, part)
	case *logicNode:
		if n.and == neg { // "or", or "not and": a union
			return union(plan(n.l, neg, part), plan(n.r, neg, part))
		}
		if pk, ok := fixedPartition(n, neg); ok {
			part = &pk
		}
		return intersect(plan(n.l, neg, part), plan(n.r, neg, part))
	case *cmpNode:
		return planComparison(n, neg, part)
	case constNode:
		if bool(n) == neg { // false, or "not true": nothing to read
			return nil
		}
	}
	return []stored.KeyRange{stored.WholeTable}
}

// fixedPartition returns X when n (negated if neg) can only hold for entities whose
// PartitionKey is X.
func fixedPartition(n node, neg bool) (string, bool) {
	switch n := n.(type) {
	case *notNode:
		return fixedPartition(n.x, !neg)
	case *logicNode:
		l, lok := fixedPartition(n.l, neg)
		r, rok := fixedPartition(n.r, neg)
		if n.and != neg { // a conjunction: either side fixes it
			return orElse(l, lok, r, rok)
		}
		return l, lok && rok && l == r // a disjunction: both sides must agree
	case *cmpNode:
		op, s, ok := keyComparison(n, neg)
		return s, ok && n.prop == model.PartitionKeyName && op == OpEq
	}
	return "", false
}

func orElse(a string, aok bool, b string, bok bool) (string, bool) {
	if aok {
		return a, true
	}
	return b, bok
}

// keyComparison returns the operator (negated if neg) and the string constant of a
// comparison that can bound keys. Constants holding U+0000 bound nothing: they would
// collide with the separator of the key encoding (and no stored key holds one).
func keyComparison(n *cmpNode, neg bool) (Op, string, bool) {
	if n.lit.Type() != model.TypeString || strings.IndexByte(n.lit.Str(), 0) >= 0 {
		return 0, "", false
	}
	if neg {
		return n.op.negate(), n.lit.Str(), true
	}
	return n.op, n.lit.Str(), true
}

// planComparison returns the ranges of one comparison.
func planComparison(n *cmpNode, neg bool, part *string) []stored.KeyRange {
	whole := []stored.KeyRange{stored.WholeTable}
	if n.prop != model.PartitionKeyName && n.prop != model.RowKeyName {
		return whole
	}
	if n.lit.Type() != model.TypeString { // keys are strings: never true, so "not" is always
		if neg {
			return whole
		}
		return nil
	}
	op, s, ok := keyComparison(n, neg)
	switch {
	case !ok:
		return whole
	case n.prop == model.PartitionKeyName:
		return partitionRanges(op, s)
	case part != nil && strings.IndexByte(*part, 0) < 0:
		return rowRanges(*part, op, s)
	}
	return whole
}

// partitionRanges returns the ranges of "PartitionKey op x".
func partitionRanges(op Op, x string) []stored.KeyRange {
	start, end := stored.PartitionStart(x), stored.PartitionEnd(x)
	return split(op, stored.TableStart, start, end, stored.TableEnd)
}

// rowRanges returns the ranges of "RowKey op y" inside partition pk.
func rowRanges(pk string, op Op, y string) []stored.KeyRange {
	return split(op, stored.PartitionStart(pk), stored.KeyAt(pk, y), stored.KeyAfter(pk, y), stored.PartitionEnd(pk))
}

// split returns the ranges of "key op k" within [lo, hi), where [at, after) holds the
// keys equal to k.
func split(op Op, lo, at, after, hi stored.Bound) []stored.KeyRange {
	var out []stored.KeyRange
	switch op {
	case OpEq:
		out = []stored.KeyRange{{From: at, To: after}}
	case OpNe:
		out = []stored.KeyRange{{From: lo, To: at}, {From: after, To: hi}}
	case OpLt:
		out = []stored.KeyRange{{From: lo, To: at}}
	case OpLe:
		out = []stored.KeyRange{{From: lo, To: after}}
	case OpGt:
		out = []stored.KeyRange{{From: after, To: hi}}
	case OpGe:
		out = []stored.KeyRange{{From: at, To: hi}}
	}
	return normalize(out)
}

// union returns the ranges in a or b.
func union(a, b []stored.KeyRange) []stored.KeyRange {
	return normalize(append(slices.Clip(a), b...))
}

// intersect returns the ranges in both a and b.
func intersect(a, b []stored.KeyRange) []stored.KeyRange {
	var out []stored.KeyRange
	for _, x := range a {
		for _, y := range b {
			if r := x.Intersect(y); !r.Empty() {
				out = append(out, r)
			}
		}
	}
	return normalize(out)
}

// normalize sorts ranges, drops empty ones and merges those that overlap or touch.
func normalize(rs []stored.KeyRange) []stored.KeyRange {
	kept := rs[:0]
	for _, r := range rs {
		if !r.Empty() {
			kept = append(kept, r)
		}
	}
	clear(rs[len(kept):])
	rs = kept
	heapSort(len(rs), func(i, j int) bool { return rs[i].From < rs[j].From }, func(i, j int) { rs[i], rs[j] = rs[j], rs[i] })
	out := rs[:0]
	for _, r := range rs {
		if n := len(out); n > 0 && r.From <= out[n-1].To {
			out[n-1].To = max(out[n-1].To, r.To)
			continue
		}
		out = append(out, r)
	}
	if len(out) == 0 {
		return nil
	}
	return out
}
