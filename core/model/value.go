package model

import (
	"math"
	"unicode/utf16"
	"unicode/utf8"
)

// Type is one of the eight EDM property types of the Table service.
type Type uint8

// The EDM types. TypeString is the zero value: a property is a String unless a type is given.
const (
	TypeString Type = iota
	TypeBinary
	TypeBoolean
	TypeDateTime
	TypeDouble
	TypeGuid
	TypeInt32
	TypeInt64
)

var typeNames = [...]string{
	TypeString:   "Edm.String",
	TypeBinary:   "Edm.Binary",
	TypeBoolean:  "Edm.Boolean",
	TypeDateTime: "Edm.DateTime",
	TypeDouble:   "Edm.Double",
	TypeGuid:     "Edm.Guid",
	TypeInt32:    "Edm.Int32",
	TypeInt64:    "Edm.Int64",
}

// String returns the OData name of the type, such as "Edm.Int64".
func (t Type) String() string {
	if int(t) < len(typeNames) {
		return typeNames[t]
	}
	return "Edm.Unknown"
}

// ParseType returns the type named by an OData type name such as "Edm.Int64".
func ParseType(name string) (Type, error) {
	for t, n := range typeNames {
		if n == name {
			return Type(t), nil
		}
	}
	return 0, ErrTypeUnknown
}

// Guid is a 128-bit GUID in the byte order of its text form.
type Guid [16]byte

// Value is a typed property value. The zero Value is the empty String.
// Values are immutable and comparable with ==.
type Value struct {
	typ Type
	num uint64 // Boolean (0/1), Int32, Int64, Double bits, DateTime ticks
	str string // String, Binary bytes, Guid bytes
}

// StringValue returns an Edm.String value.
func StringValue(s string) Value { return Value{typ: TypeString, str: s} }

// BinaryValue returns an Edm.Binary value holding a copy of b.
func BinaryValue(b []byte) Value { return Value{typ: TypeBinary, str: string(b)} }

// BoolValue returns an Edm.Boolean value.
func BoolValue(b bool) Value {
	v := Value{typ: TypeBoolean}
	if b {
		v.num = 1
	}
	return v
}

// DateTimeValue returns an Edm.DateTime value.
func DateTimeValue(d DateTime) Value { return Value{typ: TypeDateTime, num: uint64(d)} }

// DoubleValue returns an Edm.Double value; NaN and the infinities are allowed. Every NaN
// becomes the one NaN that ParseDouble returns, so that Values stay comparable with ==.
func DoubleValue(f float64) Value {
	if math.IsNaN(f) {
		f = math.NaN()
	}
	return Value{typ: TypeDouble, num: math.Float64bits(f)}
}

// GuidValue returns an Edm.Guid value.
func GuidValue(g Guid) Value { return Value{typ: TypeGuid, str: string(g[:])} }

// Int32Value returns an Edm.Int32 value.
func Int32Value(n int32) Value { return Value{typ: TypeInt32, num: uint64(int64(n))} }

// Int64Value returns an Edm.Int64 value.
func Int64Value(n int64) Value { return Value{typ: TypeInt64, num: uint64(n)} }

// Type returns the value's EDM type.
func (v Value) Type() Type { return v.typ }

// Str returns the text of a String value ("" for other types).
func (v Value) Str() string {
	if v.typ != TypeString {
		return ""
	}
	return v.str
}

// Bytes returns a copy of a Binary value's bytes (nil for other types).
func (v Value) Bytes() []byte {
	if v.typ != TypeBinary {
		return nil
	}
	return []byte(v.str)
}

// Raw returns the bytes of a String, Binary or Guid value as a string, without copying
// ("" for other types): how Binary and Guid values compare byte by byte.
func (v Value) Raw() string { return v.str }

// Bits returns the number a Boolean (0 or 1), Int32, Int64 (as two's complement), Double
// (its IEEE 754 bits) or DateTime (its ticks) value holds; 0 for other types. With Raw,
// it is the value as a stored form writes it.
func (v Value) Bits() uint64 { return v.num }

// ValueOfBits returns the value of type t that Bits and Raw read as bits and raw: how a
// stored form reads a value back without copying it. It checks nothing; the stored form
// checks what it reads.
func ValueOfBits(t Type, bits uint64, raw string) Value { return Value{typ: t, num: bits, str: raw} }

// Bool returns a Boolean value.
func (v Value) Bool() bool { return v.typ == TypeBoolean && v.num != 0 }

// DateTime returns a DateTime value.
func (v Value) DateTime() DateTime {
	if v.typ != TypeDateTime {
		return 0
	}
	return DateTime(v.num)
}

// Double returns a Double value.
func (v Value) Double() float64 {
	if v.typ != TypeDouble {
		return 0
	}
	return math.Float64frombits(v.num)
}

// Guid returns a Guid value.
func (v Value) Guid() Guid {
	var g Guid
	if v.typ == TypeGuid {
		copy(g[:], v.str)
	}
	return g
}

// Int32 returns an Int32 value.
func (v Value) Int32() int32 {
	if v.typ != TypeInt32 {
		return 0
	}
	return int32(v.num)
}

// Int64 returns an Int64 value.
func (v Value) Int64() int64 {
	if v.typ != TypeInt64 {
		return 0
	}
	return int64(v.num)
}

// Size is the value's contribution to the entity size formula: String 4+2×UTF-16 units,
// Binary 4+len, DateTime/Double/Int64 8, Guid 16, Int32 4, Boolean 1.
func (v Value) Size() int {
	switch v.typ {
	case TypeString:
		return 4 + 2*UTF16Len(v.str)
	case TypeBinary:
		return 4 + len(v.str)
	case TypeBoolean:
		return 1
	case TypeInt32:
		return 4
	case TypeGuid:
		return 16
	default:
		return 8
	}
}

// Validate reports whether the value respects its type's limits: String and Binary at most
// 64 KiB (a String counted as UTF-16, and valid UTF-8, ErrValueInvalid otherwise),
// DateTime within 1601-01-01 to 9999-12-31.
func (v Value) Validate() error {
	switch v.typ {
	case TypeString:
		if 2*UTF16Len(v.str) > MaxValueBytes {
			return ErrValueTooLarge
		}
		if !utf8.ValidString(v.str) {
			return ErrValueInvalid
		}
	case TypeBinary:
		if len(v.str) > MaxValueBytes {
			return ErrValueTooLarge
		}
	case TypeDateTime:
		if !DateTime(v.num).Valid() {
			return ErrValueOutOfRange
		}
	case TypeBoolean, TypeDouble, TypeGuid, TypeInt32, TypeInt64:
	default:
		return ErrTypeUnknown
	}
	return nil
}

// UTF16Len returns the number of UTF-16 code units that encode s, the measure Azure uses
// for string sizes. Invalid UTF-8 bytes count as one unit each (U+FFFD).
func UTF16Len(s string) int {
	n := 0
	for i := 0; i < len(s); {
		if i+8 <= len(s) && ascii8(s[i:i+8]) {
			n += 8
			i += 8
			continue
		}
		c := s[i]
		if c < utf8.RuneSelf {
			n++
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		n += utf16.RuneLen(r)
		i += size
	}
	return n
}

// ascii8 reports whether the first 8 bytes of s are all ASCII, read as one word.
func ascii8(s string) bool { return load64(s)&0x8080808080808080 == 0 }

// load64 returns the first eight bytes of s as a little-endian word.
func load64(s string) uint64 {
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}
