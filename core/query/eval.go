package query

import (
	"cmp"
	"math"
	"strings"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/core/stored"
)

// record is what a filter is evaluated on: an entity or a table.
type record interface {
	// lookup returns the value of the named property and whether the record has it.
	lookup(name string) (model.Value, bool)
}

// entityRecord exposes an entity's system and custom properties to a filter.
type entityRecord struct{ e *model.Entity }

func (r entityRecord) lookup(name string) (model.Value, bool) {
	switch name {
	case model.PartitionKeyName:
		return model.StringValue(r.e.PartitionKey), true
	case model.RowKeyName:
		return model.StringValue(r.e.RowKey), true
	case model.TimestampName:
		return model.DateTimeValue(r.e.Timestamp), true
	}
	return r.e.Get(name)
}

// storedRecord exposes an entity as stored to a filter: keys from the record's key (split
// when first needed, stored.Record.SplitKeys), Timestamp from its head, a custom property
// found in place (stored.Record.Lookup, no allocation).
type storedRecord struct{ r *stored.Record }

func (r storedRecord) lookup(name string) (model.Value, bool) {
	switch name {
	case model.PartitionKeyName:
		r.r.SplitKeys()
		return model.StringValue(r.r.PartitionKey), true
	case model.RowKeyName:
		r.r.SplitKeys()
		return model.StringValue(r.r.RowKey), true
	case model.TimestampName:
		return model.DateTimeValue(r.r.Timestamp()), true
	}
	return r.r.Lookup(name)
}

// tableRecord exposes a table to a filter: its only property is TableName.
type tableRecord struct{ t *core.Table }

// TableNameProperty is the property a Query Tables filter compares.
const TableNameProperty = "TableName"

func (r tableRecord) lookup(name string) (model.Value, bool) {
	if name == TableNameProperty {
		return model.StringValue(r.t.Name), true
	}
	return model.Value{}, false
}

// Matches reports whether an entity satisfies the filter; the nil filter matches all.
func (f *Filter) Matches(e *model.Entity) bool {
	return f == nil || f.root.eval(entityRecord{e})
}

// MatchesRecord reports whether an entity as stored satisfies the filter, as Matches
// does for the decoded entity, reading only the properties the filter names and
// allocating nothing; the nil filter matches all.
func (f *Filter) MatchesRecord(r *stored.Record) bool {
	return f == nil || f.root.eval(storedRecord{r})
}

// MatchesTable reports whether a table satisfies a Query Tables filter, whose property is
// TableName; the nil filter matches all.
func (f *Filter) MatchesTable(t *core.Table) bool {
	return f == nil || f.root.eval(tableRecord{t})
}

func (n *logicNode) eval(r record) bool {
	if n.and {
		return n.l.eval(r) && n.r.eval(r)
	}
	return n.l.eval(r) || n.r.eval(r)
}

func (n *notNode) eval(r record) bool { return !n.x.eval(r) }

func (n constNode) eval(record) bool { return bool(n) }

func (n *cmpNode) eval(r record) bool {
	if s, stored := r.(storedRecord); stored && n.custom {
		return n.matchRecord(s.r) // a scan's common case, with no dispatch on the name
	}
	v, ok := r.lookup(n.prop)
	return ok && n.matches(v)
}

// recordMatcher returns MatchesRecord prepared for a scan: for a filter that is one
// comparison of a custom property, the comparison itself, so that a candidate costs no
// dispatch on the filter's node or the record's kind.
func (f *Filter) recordMatcher() func(*stored.Record) bool {
	if f != nil {
		if n, ok := f.root.(*cmpNode); ok && n.custom {
			return n.matchRecord
		}
	}
	return f.MatchesRecord
}

// matchRecord is eval on a stored record for a comparison of a custom property.
func (n *cmpNode) matchRecord(r *stored.Record) bool {
	v, ok := r.Lookup(n.prop)
	return ok && n.matches(v)
}

// matches reports whether the property's value v satisfies the comparison.
func (n *cmpNode) matches(v model.Value) bool {
	if t := v.Type(); n.isInteger && (t == model.TypeInt32 || t == model.TypeInt64) {
		x := v.Int64()
		if t == model.TypeInt32 {
			x = int64(v.Int32())
		}
		return n.want.ordered[cmp.Compare(x, n.integer)+1]
	}
	return n.want.of(compareValues(v, n.lit))
}

// order is the outcome of comparing a property value with a literal.
type order uint8

const (
	mismatch  order = iota // the types cannot be compared: every operator is false
	unordered              // a NaN is involved: only ne is true
	ordered                // c holds the comparison
)

// holds applies op to the result c of a three-way comparison.
func holds(op Op, c int) bool {
	switch op {
	case OpEq:
		return c == 0
	case OpNe:
		return c != 0
	case OpGt:
		return c > 0
	case OpGe:
		return c >= 0
	case OpLt:
		return c < 0
	}
	return c <= 0
}

// compareValues compares two values three-way. Numbers (Int32, Int64, Double) compare
// with each other by value; every other type compares only with its own type.
func compareValues(a, b model.Value) (int, order) {
	ta, tb := a.Type(), b.Type()
	if isNumeric(ta) && isNumeric(tb) {
		return compareNumbers(a, b)
	}
	if ta != tb {
		return 0, mismatch
	}
	switch ta {
	case model.TypeString:
		return cmp.Compare(a.Str(), b.Str()), ordered
	case model.TypeDateTime:
		return cmp.Compare(a.DateTime(), b.DateTime()), ordered
	case model.TypeBoolean:
		return cmpBool(a.Bool(), b.Bool()), ordered
	case model.TypeGuid, model.TypeBinary:
		return strings.Compare(a.Raw(), b.Raw()), ordered
	}
	return 0, mismatch
}

func isNumeric(t model.Type) bool {
	return t == model.TypeInt32 || t == model.TypeInt64 || t == model.TypeDouble
}

func cmpBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case b:
		return -1
	}
	return 1
}

// asInt returns an Int32 or Int64 value as int64, and false for a Double.
func asInt(v model.Value) (int64, bool) {
	switch v.Type() {
	case model.TypeInt32:
		return int64(v.Int32()), true
	case model.TypeInt64:
		return v.Int64(), true
	}
	return 0, false
}

// compareNumbers compares two numeric values exactly, whatever their types.
func compareNumbers(a, b model.Value) (int, order) {
	ai, aInt := asInt(a)
	bi, bInt := asInt(b)
	switch {
	case aInt && bInt:
		return cmp.Compare(ai, bi), ordered
	case aInt:
		return compareIntFloat(ai, b.Double())
	case bInt:
		c, o := compareIntFloat(bi, a.Double())
		return -c, o
	}
	x, y := a.Double(), b.Double()
	if math.IsNaN(x) || math.IsNaN(y) {
		return 0, unordered
	}
	return cmp.Compare(x, y), ordered
}

// compareIntFloat compares an integer with a float exactly, with no rounding of i.
func compareIntFloat(i int64, f float64) (int, order) {
	const two63 = 9223372036854775808.0
	switch {
	case math.IsNaN(f):
		return 0, unordered
	case f >= two63:
		return -1, ordered
	case f < -two63:
		return 1, ordered
	}
	t := math.Trunc(f)
	if c := cmp.Compare(i, int64(t)); c != 0 {
		return c, ordered
	}
	return cmp.Compare(0, f-t), ordered
}
