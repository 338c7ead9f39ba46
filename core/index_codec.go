package core

import (
	"encoding/binary"
	"math"
	"strings"
)

// An index entry's value part is a class byte, then the value in an order-preserving
// encoding, then the separator \0: binary order of entries is the filter's order of the
// values they hold (see query's comparison rules), within one class.
//
//	String, Binary   the bytes, each \0 written \0\xff (no other byte needs escaping:
//	                 every value's entries are then [V\0, V\0\xff), after every shorter
//	                 value it extends and before every longer one)
//	Boolean          one byte, 0 or 1
//	DateTime         the 100 ns ticks, 8 bytes big-endian with the sign bit flipped
//	Guid             the 16 bytes as stored
//	Int32, Int64,    one numeric class: the value as the nearest float64, 8 bytes ordered
//	Double           like numbers (-0 as +0). Large Int64 values round, so one encoded
//	                 number may stand for several values: an index read is a superset,
//	                 and every candidate is tested with the whole filter
//	NaN              a class of its own, which no eq or range read visits (a NaN is
//	                 unordered: only ne holds for it)
const (
	classString   byte = 's'
	classBinary   byte = 'b'
	classBoolean  byte = 'o'
	classDateTime byte = 't'
	classGuid     byte = 'g'
	classNumber   byte = 'n'
	classNaN      byte = 'z'
)

// IndexRange is a half-open interval [From, To) of an index's value order, as returned
// by IndexEq, IndexAbove and IndexBelow and read by Tx.ScanIndex. It holds every entry
// whose value satisfies the comparison it was made for, and for numbers possibly a few
// more (see the numeric class above).
type IndexRange struct {
	From, To string
}

// indexClass returns the class byte of a value's type.
func indexClass(v Value) byte {
	switch v.Type() {
	case TypeString:
		return classString
	case TypeBinary:
		return classBinary
	case TypeBoolean:
		return classBoolean
	case TypeDateTime:
		return classDateTime
	case TypeGuid:
		return classGuid
	case TypeDouble:
		if math.IsNaN(v.Double()) {
			return classNaN
		}
	}
	return classNumber
}

// appendIndexValue appends the class and encoded value of v, without the separator.
func appendIndexValue(b []byte, v Value) []byte {
	cls := indexClass(v)
	b = append(b, cls)
	switch cls {
	case classString, classBinary:
		return appendEscaped(b, v.Raw())
	case classBoolean:
		if v.Bool() {
			return append(b, 1)
		}
		return append(b, 0)
	case classDateTime:
		return binary.BigEndian.AppendUint64(b, uint64(v.DateTime())^(1<<63))
	case classGuid:
		return append(b, v.Raw()...)
	case classNaN:
		return b
	}
	return binary.BigEndian.AppendUint64(b, orderedFloat(numberOf(v)))
}

// appendEscaped appends s with each \0 written \0\xff.
func appendEscaped(b []byte, s string) []byte {
	for {
		i := strings.IndexByte(s, 0)
		if i < 0 {
			return append(b, s...)
		}
		b = append(b, s[:i+1]...)
		b = append(b, 0xff)
		s = s[i+1:]
	}
}

// numberOf returns a numeric value as the nearest float64. The conversion never
// decreases as the value grows, which is all the index's order needs.
func numberOf(v Value) float64 {
	switch v.Type() {
	case TypeInt32:
		return float64(v.Int32())
	case TypeInt64:
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

// Indexable reports whether a literal of v's type can be looked up in an index: every
// type but a NaN Double.
func Indexable(v Value) bool { return indexClass(v) != classNaN }

// IndexEq returns the range of entries whose value equals v.
func IndexEq(v Value) IndexRange {
	at := string(appendIndexValue(nil, v))
	return IndexRange{From: at + sep, To: at + sep + "\xff"}
}

// IndexAbove returns the range of entries whose value is greater than v, or equal to it
// too when orEqual is set, within v's class.
func IndexAbove(v Value, orEqual bool) IndexRange {
	eq := IndexEq(v)
	from := eq.To
	if orEqual || indexClass(v) == classNumber { // a number's equal bucket may hold greater values
		from = eq.From
	}
	return IndexRange{From: from, To: string([]byte{indexClass(v) + 1})}
}

// IndexBelow returns the range of entries whose value is less than v, or equal to it
// too when orEqual is set, within v's class.
func IndexBelow(v Value, orEqual bool) IndexRange {
	eq := IndexEq(v)
	to := eq.From
	if orEqual || indexClass(v) == classNumber { // a number's equal bucket may hold lesser values
		to = eq.To
	}
	return IndexRange{From: string([]byte{indexClass(v)}), To: to}
}
