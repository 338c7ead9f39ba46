package wire

import (
	"strconv"

	"github.com/tabletopdb/tabletop/core/model"
)

// value converts a member's JSON value (text is its decoded string or number text) to a
// typed value, following its annotation if it has one.
func (m *member) value(text string) (model.Value, error) {
	if !m.typed {
		return inferred(m.kind, text, m.integral)
	}
	switch m.kind {
	case kindTrue, kindFalse:
		if m.typ == model.TypeBoolean {
			return model.BoolValue(m.kind == kindTrue), nil
		}
	case kindNumber:
		if m.typ == model.TypeDouble || m.typ == model.TypeInt32 || m.typ == model.TypeInt64 {
			return model.ParseValue(m.typ, text)
		}
	case kindString:
		if m.typ == model.TypeString {
			return model.StringValue(text), nil
		}
		return model.ParseValue(m.typ, text)
	}
	return model.Value{}, model.ErrValueInvalid
}

// inferred types an unannotated value as Azure does: a string is a String, true and false
// a Boolean, an integer in Int32 range an Int32 and any other number a Double.
func inferred(k kind, text string, integral bool) (model.Value, error) {
	switch k {
	case kindString:
		return model.StringValue(text), nil
	case kindTrue, kindFalse:
		return model.BoolValue(k == kindTrue), nil
	}
	if integral {
		if n, err := strconv.ParseInt(text, 10, 32); err == nil {
			return model.Int32Value(int32(n)), nil
		}
	}
	f, err := model.ParseDouble(text)
	return model.DoubleValue(f), err
}
