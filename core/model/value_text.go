package model

import (
	"bytes"
	"encoding/base64"
	"math"
	"strconv"
)

// Text returns the value in its Azure wire form as text: a String as is, Binary as
// base64, Boolean as true/false, DateTime as ISO 8601 with seven fractional digits, Double
// as FormatDouble writes it ("5.0", "0.1", "1e+21", "NaN", "-Infinity"), Guid in
// lowercase text form, Int32 and Int64 as decimal.
func (v Value) Text() string {
	switch v.typ {
	case TypeString:
		return v.str
	case TypeBinary:
		return base64.StdEncoding.EncodeToString([]byte(v.str))
	case TypeBoolean:
		return strconv.FormatBool(v.Bool())
	case TypeDateTime:
		return v.DateTime().String()
	case TypeDouble:
		return FormatDouble(v.Double())
	case TypeGuid:
		return v.Guid().String()
	case TypeInt32:
		return strconv.FormatInt(int64(v.Int32()), 10)
	case TypeInt64:
		return strconv.FormatInt(v.Int64(), 10)
	}
	return ""
}

// FormatDouble formats f as Azure writes a Double: NaN, Infinity, -Infinity, or the
// shortest decimal that round-trips, in plain notation when 1e-6 ≤ |f| < 1e21 (as
// JavaScript does) and with an exponent otherwise. An integral result gets ".0", such as
// "5.0", so that a reader does not take it for an Int32.
func FormatDouble(f float64) string { return string(AppendDouble(nil, f)) }

// AppendDouble appends FormatDouble(f) to b.
func AppendDouble(b []byte, f float64) []byte {
	switch {
	case math.IsNaN(f):
		return append(b, "NaN"...)
	case math.IsInf(f, 1):
		return append(b, "Infinity"...)
	case math.IsInf(f, -1):
		return append(b, "-Infinity"...)
	}
	if a := math.Abs(f); a != 0 && (a < 1e-6 || a >= 1e21) {
		return strconv.AppendFloat(b, f, 'e', -1, 64)
	}
	start := len(b)
	b = strconv.AppendFloat(b, f, 'f', -1, 64)
	if bytes.IndexByte(b[start:], '.') < 0 {
		b = append(b, '.', '0')
	}
	return b
}

// ParseValue parses text in the wire form of type t (the inverse of Value.Text) and checks
// the type's limits. On error it returns the zero Value.
func ParseValue(t Type, text string) (Value, error) {
	v, err := parseValue(t, text)
	if err == nil {
		err = v.Validate()
	}
	if err != nil {
		return Value{}, err
	}
	return v, nil
}

func parseValue(t Type, text string) (Value, error) {
	switch t {
	case TypeString:
		return StringValue(text), nil
	case TypeBinary:
		b, err := base64.StdEncoding.DecodeString(text)
		if err != nil {
			return Value{}, ErrValueInvalid
		}
		return BinaryValue(b), nil
	case TypeBoolean:
		b, err := strconv.ParseBool(text)
		if err != nil || (text != "true" && text != "false") {
			return Value{}, ErrValueInvalid
		}
		return BoolValue(b), nil
	case TypeDateTime:
		d, err := ParseDateTime(text)
		return DateTimeValue(d), err
	case TypeDouble:
		f, err := ParseDouble(text)
		return DoubleValue(f), err
	case TypeGuid:
		g, err := ParseGuid(text)
		return GuidValue(g), err
	case TypeInt32:
		n, err := strconv.ParseInt(text, 10, 32)
		return Int32Value(int32(n)), numErr(err)
	case TypeInt64:
		n, err := strconv.ParseInt(text, 10, 64)
		return Int64Value(n), numErr(err)
	}
	return Value{}, ErrTypeUnknown
}

// ParseDouble parses a decimal number or one of NaN, Infinity, -Infinity.
func ParseDouble(text string) (float64, error) {
	switch text {
	case "NaN":
		return math.NaN(), nil
	case "Infinity", "INF":
		return math.Inf(1), nil
	case "-Infinity", "-INF":
		return math.Inf(-1), nil
	}
	if text == "" || !isDecimal(text) {
		return 0, ErrValueInvalid
	}
	f, err := strconv.ParseFloat(text, 64)
	if err != nil {
		return 0, numErr(err)
	}
	return f, nil
}

// isDecimal reports whether s uses only the characters of a decimal number, so that Go's
// extras (hex floats, underscores, "inf") are refused.
func isDecimal(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-') {
			return false
		}
	}
	return true
}

func numErr(err error) error {
	if err == nil {
		return nil
	}
	if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
		return ErrValueOutOfRange
	}
	return ErrValueInvalid
}
