package query

import "github.com/tabletopdb/tabletop/core/model"

// outcome is what an operator gives for each result of a three-way comparison, and for
// an unordered one (a NaN): what holds and compare compute, looked up rather than
// branched on per candidate.
type outcome struct {
	ordered   [3]bool // for -1, 0, +1, at c+1
	unordered bool
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

// newCmpNode returns the comparison "prop op lit", prepared for eval, which a scan calls
// once per candidate entity: the outcome of its operator for each result of a three-way
// comparison, and its constant as an integer when it is one, so that a candidate costs
// one comparison with no dispatch on the operator or, for an integer constant, types.
func newCmpNode(prop string, op Op, lit model.Value) *cmpNode {
	n := &cmpNode{prop: prop, op: op, lit: lit,
		want: outcome{ordered: [3]bool{holds(op, -1), holds(op, 0), holds(op, 1)}, unordered: op == OpNe}}
	n.integer, n.isInteger = asInt(lit)
	n.custom = prop != model.PartitionKeyName && prop != model.RowKeyName && prop != model.TimestampName
	return n
}
