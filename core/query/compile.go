package query

import (
	"cmp"

	"github.com/tabletopdb/tabletop/core"
)

// recordMatcher is a filter compiled for stored records: one function per node, each
// calling its children directly, and each comparison bound at compile time to what it
// reads (a key, the Timestamp or a custom property found in place). It gives what eval
// gives on the decoded entity, with no interface call and no property-name switch per
// candidate.
type recordMatcher func(r *core.Record) bool

// recordMatcher returns the filter compiled for stored records; the nil filter's matches
// every record.
func (f *Filter) recordMatcher() recordMatcher {
	if f == nil {
		return func(*core.Record) bool { return true }
	}
	return f.match
}

// compileRecord compiles n for stored records.
func compileRecord(n node) recordMatcher {
	switch n := n.(type) {
	case *logicNode:
		l, r := compileRecord(n.l), compileRecord(n.r)
		if n.and {
			return func(rec *core.Record) bool { return l(rec) && r(rec) }
		}
		return func(rec *core.Record) bool { return l(rec) || r(rec) }
	case *notNode:
		x := compileRecord(n.x)
		return func(rec *core.Record) bool { return !x(rec) }
	case *cmpNode:
		return compileComparison(n)
	}
	holds := bool(n.(constNode))
	return func(*core.Record) bool { return holds }
}

// compileComparison compiles one comparison. A custom property compared with an integer
// compares integers directly when the stored value is one too.
func compileComparison(n *cmpNode) recordMatcher {
	op, lit := n.op, n.lit
	switch n.prop {
	case core.PartitionKeyName:
		return func(rec *core.Record) bool { return compare(core.StringValue(rec.PartitionKey), op, lit) }
	case core.RowKeyName:
		return func(rec *core.Record) bool { return compare(core.StringValue(rec.RowKey), op, lit) }
	case core.TimestampName:
		return func(rec *core.Record) bool { return compare(core.DateTimeValue(rec.Timestamp()), op, lit) }
	}
	name := n.prop
	if x, ok := asInt(lit); ok {
		return func(rec *core.Record) bool {
			v, ok := rec.Lookup(name)
			if !ok {
				return false
			}
			if y, ok := asInt(v); ok {
				return holds(op, cmp.Compare(y, x))
			}
			return compare(v, op, lit)
		}
	}
	return func(rec *core.Record) bool {
		v, ok := rec.Lookup(name)
		return ok && compare(v, op, lit)
	}
}
