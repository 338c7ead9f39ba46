package query

import (
	"encoding/hex"
	"errors"
	"strconv"
	"strings"

	"github.com/tabletopdb/tabletop/core/model"
)

// literal returns the value of a literal token of src.
func literal(src string, t token) (model.Value, error) {
	switch t.kind {
	case tokString:
		return model.StringValue(t.value), nil
	case tokNumber:
		return number(src, t)
	case tokTyped:
		return typed(src, t)
	case tokIdent:
		if t.text == "true" || t.text == "false" {
			return model.BoolValue(t.text == "true"), nil
		}
	}
	return model.Value{}, errAt(src, t.pos, ErrFilterSyntax, "expected a literal")
}

// number returns the value of a number token: Int64 with an L suffix, Double with a
// fraction or an exponent, else Int32.
func number(src string, t token) (model.Value, error) {
	text := t.text
	isFloat := strings.ContainsAny(text, ".eE")
	switch last := text[len(text)-1]; {
	case last == 'L' || last == 'l':
		if isFloat {
			return model.Value{}, errAt(src, t.pos, ErrFilterSyntax, "Int64 literal %s has a fraction or exponent", text)
		}
		n, err := strconv.ParseInt(text[:len(text)-1], 10, 64)
		return model.Int64Value(n), rangeErr(src, t, err, "Edm.Int64")
	case isFloat:
		f, err := strconv.ParseFloat(text, 64)
		return model.DoubleValue(f), rangeErr(src, t, err, "Edm.Double")
	}
	n, err := strconv.ParseInt(text, 10, 32)
	return model.Int32Value(int32(n)), rangeErr(src, t, err, "Edm.Int32")
}

// rangeErr turns a strconv error on a lexically valid number into ErrLiteralOutOfRange.
func rangeErr(src string, t token, err error, typ string) error {
	if err == nil {
		return nil
	}
	return errAt(src, t.pos, ErrLiteralOutOfRange, "%s literal %s is out of range", typ, t.text)
}

// typed returns the value of a datetime, guid or binary literal.
func typed(src string, t token) (model.Value, error) {
	prefix := literalPrefix(t.text)
	switch prefix {
	case "datetime":
		d, err := model.ParseEdmDateTime(t.value)
		if errors.Is(err, model.ErrValueOutOfRange) {
			return model.Value{}, errAt(src, t.pos, ErrLiteralOutOfRange, "datetime literal is out of range")
		}
		if err != nil {
			return model.Value{}, errAt(src, t.quoted, ErrFilterSyntax, "invalid datetime literal: expected yyyy-mm-ddThh:mm[:ss[.fffffff]] and Z, ±hh:mm or no zone")
		}
		return model.DateTimeValue(d), nil
	case "guid":
		g, err := model.ParseGuid(t.value)
		if err != nil {
			return model.Value{}, errAt(src, t.quoted, ErrFilterSyntax, "invalid guid literal")
		}
		return model.GuidValue(g), nil
	}
	b, err := hex.DecodeString(t.value)
	if err != nil {
		return model.Value{}, errAt(src, t.quoted, ErrFilterSyntax, "invalid binary literal: an even number of hex digits is needed")
	}
	return model.BinaryValue(b), nil
}
