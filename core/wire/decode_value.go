package wire

import (
	"strconv"

	"github.com/tabletopdb/tabletop/core"
)

// value converts a member's JSON value (text is its decoded string or number text) to a
// typed value, following its annotation if it has one.
func (m *member) value(text string) (core.Value, error) {
	if !m.typed {
		return inferred(m.kind, text, m.integral)
	}
	switch m.kind {
	case kindTrue, kindFalse:
		if m.typ == core.TypeBoolean {
			return core.BoolValue(m.kind == kindTrue), nil
		}
	case kindNumber:
		if m.typ == core.TypeDouble || m.typ == core.TypeInt32 || m.typ == core.TypeInt64 {
			return core.ParseValue(m.typ, text)
		}
	case kindString:
		if m.typ == core.TypeString {
			return core.StringValue(text), nil
		}
		return core.ParseValue(m.typ, text)
	}
	return core.Value{}, core.ErrValueInvalid
}

// inferred types an unannotated value as Azure does: a string is a String, true and false
// a Boolean, an integer in Int32 range an Int32 and any other number a Double.
func inferred(k kind, text string, integral bool) (core.Value, error) {
	switch k {
	case kindString:
		return core.StringValue(text), nil
	case kindTrue, kindFalse:
		return core.BoolValue(k == kindTrue), nil
	}
	if integral {
		if n, err := strconv.ParseInt(text, 10, 32); err == nil {
			return core.Int32Value(int32(n)), nil
		}
	}
	f, err := core.ParseDouble(text)
	return core.DoubleValue(f), err
}
