package stored

import (
	"cmp"
	"github.com/tabletopdb/tabletop/core/model"
	"math"
	"strings"
)

// An index orders a table's entities by the value of one property, then by key (buntdb
// breaks ties by key). Values are ordered by class first, so a comparison's entities are
// one contiguous run, then within the class as filters compare them:
//
//	String, Binary   by bytes (ordinal)
//	Boolean          false before true
//	DateTime         by 100 ns ticks
//	Guid             by its 16 bytes as stored
//	Int32, Int64,    one numeric class, by the value as the nearest float64 (-0 as +0).
//	Double           Large Int64 values round, so one position may hold several values:
//	                 an index read is a superset, and every candidate is tested with the
//	                 whole filter
//	NaN              a class of its own, which no eq or range read visits (a NaN is
//	                 unordered: only ne holds for it)
//
// Entities without the property come first, before every class.
const (
	classString   byte = 's'
	classBinary   byte = 'b'
	classBoolean  byte = 'o'
	classDateTime byte = 't'
	classGuid     byte = 'g'
	classNumber   byte = 'n'
	classNaN      byte = 'z'
)

// indexClass returns the class of a value's type.
func indexClass(v model.Value) byte {
	switch v.Type() {
	case model.TypeString:
		return classString
	case model.TypeBinary:
		return classBinary
	case model.TypeBoolean:
		return classBoolean
	case model.TypeDateTime:
		return classDateTime
	case model.TypeGuid:
		return classGuid
	case model.TypeDouble:
		if math.IsNaN(v.Double()) {
			return classNaN
		}
	}
	return classNumber
}

// compareIndexed compares two values three-way in index order.
func compareIndexed(a, b model.Value) int {
	ca, cb := indexClass(a), indexClass(b)
	if ca != cb {
		return cmp.Compare(ca, cb)
	}
	switch ca {
	case classString, classBinary, classGuid:
		return strings.Compare(a.Raw(), b.Raw())
	case classBoolean:
		return cmp.Compare(boolRank(a.Bool()), boolRank(b.Bool()))
	case classDateTime:
		return cmp.Compare(a.DateTime(), b.DateTime())
	case classNumber:
		return cmp.Compare(orderedFloat(numberOf(a)), orderedFloat(numberOf(b)))
	}
	return 0
}

func boolRank(b bool) int {
	if b {
		return 1
	}
	return 0
}

// classMin returns the least value of a class.
func classMin(class byte) model.Value {
	switch class {
	case classString:
		return model.StringValue("")
	case classBinary:
		return model.BinaryValue(nil)
	case classBoolean:
		return model.BoolValue(false)
	case classDateTime:
		return model.DateTimeValue(math.MinInt64)
	case classGuid:
		return model.GuidValue(model.Guid{})
	case classNaN:
		return model.DoubleValue(math.NaN())
	}
	return model.DoubleValue(math.Inf(-1))
}

// numberOf returns a numeric value as the nearest float64. The conversion never
// decreases as the value grows, which is all the index's order needs.
func numberOf(v model.Value) float64 {
	switch v.Type() {
	case model.TypeInt32:
		return float64(v.Int32())
	case model.TypeInt64:
		return float64(v.Int64())
	}
	return v.Double()
}

// orderedFloat maps a float64 (not NaN) to a uint64 in the same order; -0 is +0.
func orderedFloat(f float64) uint64 {
	if f == 0 {
		f = 0
	}
	bits := math.Float64bits(f)
	if bits&(1<<63) != 0 {
		return ^bits
	}
	return bits | 1<<63
}

// IndexLess is the order of the index on prop over stored entities (see above).
func IndexLess(prop string) func(a, b string) bool {
	return func(a, b string) bool {
		ra, rb := Record{data: a}, Record{data: b}
		va, aok := ra.Lookup(prop)
		vb, bok := rb.Lookup(prop)
		if !aok || !bok {
			return !aok && bok
		}
		return compareIndexed(va, vb) < 0
	}
}

// IndexRange is a run of an index's values, as returned by IndexEq, IndexAbove and
// IndexBelow and read by Tx.ScanIndex. It holds every entity whose value satisfies the
// comparison it was made for, and for numbers possibly a few more (see the numeric class
// above).
type IndexRange struct {
	class  byte
	lo, hi indexBound
}

// indexBound is one end of an IndexRange; an unset end is the end of the class.
type indexBound struct {
	v         model.Value
	set, incl bool
}

// Indexable reports whether a literal of v's type can be looked up in an index: every
// type but a NaN Double.
func Indexable(v model.Value) bool { return indexClass(v) != classNaN }

// IndexEq returns the range of entities whose value equals v.
func IndexEq(v model.Value) IndexRange {
	b := indexBound{v: v, set: true, incl: true}
	return IndexRange{class: indexClass(v), lo: b, hi: b}
}

// IndexAbove returns the range of entities whose value is greater than v, or equal to it
// too when orEqual is set, within v's class.
func IndexAbove(v model.Value, orEqual bool) IndexRange {
	// a number's position may hold greater values than v: keep it
	incl := orEqual || indexClass(v) == classNumber
	return IndexRange{class: indexClass(v), lo: indexBound{v: v, set: true, incl: incl}}
}

// IndexBelow returns the range of entities whose value is less than v, or equal to it
// too when orEqual is set, within v's class.
func IndexBelow(v model.Value, orEqual bool) IndexRange {
	incl := orEqual || indexClass(v) == classNumber
	return IndexRange{class: indexClass(v), hi: indexBound{v: v, set: true, incl: incl}}
}

// Pivot returns the least value the range may hold.
func (r IndexRange) Pivot() model.Value {
	if r.lo.set {
		return r.lo.v
	}
	return classMin(r.class)
}

// Admits reports whether v lies in the range (in), and whether a value after v may
// (more), given that v lies at or after the range's pivot in index order.
func (r IndexRange) Admits(v model.Value) (in, more bool) {
	if indexClass(v) != r.class {
		return false, false
	}
	if r.hi.set {
		if c := compareIndexed(v, r.hi.v); c > 0 || c == 0 && !r.hi.incl {
			return false, false
		}
	}
	if r.lo.set && !r.lo.incl && compareIndexed(v, r.lo.v) == 0 {
		return false, true
	}
	return true, true
}
