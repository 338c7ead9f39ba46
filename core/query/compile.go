package query

import (
	"cmp"
	"strings"

	"github.com/tabletopdb/tabletop/core"
)

// matcher is a filter compiled for stored records: it reports whether a record matches.
type matcher func(r *core.Record) bool

// compile returns the matcher of n, which a scan calls once per candidate entity. Each
// comparison is specialized once, by the property it reads and the type of its
// constant, so that a candidate costs the lookup of the property in place
// (core.Record.Lookup, no allocation) and one comparison, with none of the tree's
// dispatch on node kinds, property names and literal types. Its results are those of
// eval on the decoded entity.
func compile(n node) matcher {
	switch n := n.(type) {
	case *logicNode:
		l, r := compile(n.l), compile(n.r)
		if n.and {
			return func(x *core.Record) bool { return l(x) && r(x) }
		}
		return func(x *core.Record) bool { return l(x) || r(x) }
	case *notNode:
		x := compile(n.x)
		return func(r *core.Record) bool { return !x(r) }
	case *cmpNode:
		return compileComparison(n)
	}
	return constant(bool(n.(constNode)))
}

// constant returns the matcher that gives b for every record.
func constant(b bool) matcher { return func(*core.Record) bool { return b } }

// outcome is what an operator gives for each result of a three-way comparison, and for
// an unordered one (a NaN): what holds and compare compute, looked up rather than
// branched on per candidate.
type outcome struct {
	ordered   [3]bool // for -1, 0, +1, at c+1
	unordered bool
}

func outcomeOf(op Op) outcome {
	return outcome{ordered: [3]bool{holds(op, -1), holds(op, 0), holds(op, 1)}, unordered: op == OpNe}
}

// of returns the outcome of a comparison that gave c with order o.
func (w *outcome) of(c int, o order) bool {
	switch o {
	case ordered:
		return w.ordered[c+1]
	case unordered:
		return w.unordered
	}
	return false
}

// compileComparison returns the matcher of "prop op lit". The keys are strings and the
// Timestamp a DateTime: compared with a constant of another type, they never match.
func compileComparison(n *cmpNode) matcher {
	w := outcomeOf(n.op)
	switch n.prop {
	case core.PartitionKeyName, core.RowKeyName:
		if n.lit.Type() != core.TypeString {
			return constant(false)
		}
		s := n.lit.Str()
		if n.prop == core.PartitionKeyName {
			return func(r *core.Record) bool { r.SplitKeys(); return w.ordered[strings.Compare(r.PartitionKey, s)+1] }
		}
		return func(r *core.Record) bool { r.SplitKeys(); return w.ordered[strings.Compare(r.RowKey, s)+1] }
	case core.TimestampName:
		if n.lit.Type() != core.TypeDateTime {
			return constant(false)
		}
		t := n.lit.DateTime()
		return func(r *core.Record) bool { return w.ordered[cmp.Compare(r.Timestamp(), t)+1] }
	}
	if i, ok := asInt(n.lit); ok {
		return compileIntComparison(n.prop, i, w)
	}
	prop, lit := n.prop, n.lit
	return func(r *core.Record) bool {
		v, ok := r.Lookup(prop)
		return ok && w.of(compareValues(v, lit))
	}
}

// compileIntComparison returns the matcher of a custom property compared with an
// integer constant i (Int32 or Int64): an Int32 or Int64 property compares as an integer,
// a Double exactly (compareIntFloat), any other type not at all.
func compileIntComparison(prop string, i int64, w outcome) matcher {
	return func(r *core.Record) bool {
		v, ok := r.Lookup(prop)
		switch {
		case !ok:
			return false
		case v.Type() == core.TypeInt32:
			return w.ordered[cmp.Compare(int64(v.Int32()), i)+1]
		case v.Type() == core.TypeInt64:
			return w.ordered[cmp.Compare(v.Int64(), i)+1]
		case v.Type() == core.TypeDouble:
			c, o := compareIntFloat(i, v.Double())
			return w.of(-c, o)
		}
		return false
	}
}
