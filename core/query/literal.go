package query

import (
	"encoding/hex"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/tabletopdb/tabletop/core"
)

// MaxFractionDigits is the most fractional digits of seconds a datetime literal may have:
// seven, Azure's 100 ns resolution.
const MaxFractionDigits = 7

// literal returns the value of a literal token of src.
func literal(src string, t token) (core.Value, error) {
	switch t.kind {
	case tokString:
		return core.StringValue(t.value), nil
	case tokNumber:
		return number(src, t)
	case tokTyped:
		return typed(src, t)
	case tokIdent:
		if t.text == "true" || t.text == "false" {
			return core.BoolValue(t.text == "true"), nil
		}
	}
	return core.Value{}, errAt(src, t.pos, ErrFilterSyntax, "expected a literal")
}

// number returns the value of a number token: Int64 with an L suffix, Double with a
// fraction or an exponent, else Int32.
func number(src string, t token) (core.Value, error) {
	text := t.text
	isFloat := strings.ContainsAny(text, ".eE")
	switch last := text[len(text)-1]; {
	case last == 'L' || last == 'l':
		if isFloat {
			return core.Value{}, errAt(src, t.pos, ErrFilterSyntax, "Int64 literal %s has a fraction or exponent", text)
		}
		n, err := strconv.ParseInt(text[:len(text)-1], 10, 64)
		return core.Int64Value(n), rangeErr(src, t, err, "Edm.Int64")
	case isFloat:
		f, err := strconv.ParseFloat(text, 64)
		return core.DoubleValue(f), rangeErr(src, t, err, "Edm.Double")
	}
	n, err := strconv.ParseInt(text, 10, 32)
	return core.Int32Value(int32(n)), rangeErr(src, t, err, "Edm.Int32")
}

// rangeErr turns a strconv error on a lexically valid number into ErrLiteralOutOfRange.
func rangeErr(src string, t token, err error, typ string) error {
	if err == nil {
		return nil
	}
	return errAt(src, t.pos, ErrLiteralOutOfRange, "%s literal %s is out of range", typ, t.text)
}

// typed returns the value of a datetime, guid or binary literal.
func typed(src string, t token) (core.Value, error) {
	prefix := literalPrefix(t.text)
	switch prefix {
	case "datetime":
		d, err := dateTime(t.value)
		if errors.Is(err, core.ErrValueOutOfRange) {
			return core.Value{}, errAt(src, t.pos, ErrLiteralOutOfRange, "datetime literal is out of range")
		}
		if err != nil {
			return core.Value{}, errAt(src, t.quoted, ErrFilterSyntax, "invalid datetime literal: %v", err)
		}
		return core.DateTimeValue(d), nil
	case "guid":
		g, err := core.ParseGuid(t.value)
		if err != nil {
			return core.Value{}, errAt(src, t.quoted, ErrFilterSyntax, "invalid guid literal")
		}
		return core.GuidValue(g), nil
	}
	b, err := hex.DecodeString(t.value)
	if err != nil {
		return core.Value{}, errAt(src, t.quoted, ErrFilterSyntax, "invalid binary literal: an even number of hex digits is needed")
	}
	return core.BinaryValue(b), nil
}

// dateTime parses the text of a datetime literal: ISO 8601 with "Z", a numeric offset or
// no zone (UTC), and at most seven fractional digits. Unlike a stored DateTime, a literal
// may lie anywhere in Edm.DateTime's range, 0001-01-01 to 9999-12-31.
func dateTime(s string) (core.DateTime, error) {
	if fractionDigits(s) > MaxFractionDigits {
		return 0, errors.New("more than 7 fractional digits")
	}
	layout := "2006-01-02T15:04:05Z07:00"
	if !hasZone(s) {
		layout = "2006-01-02T15:04:05"
	}
	t, err := time.Parse(layout, s)
	if err != nil {
		return 0, errors.New("expected yyyy-mm-ddThh:mm:ss[.fffffff][Z|±hh:mm]")
	}
	if t.Year() < 1 || t.UTC().Year() < 1 || t.UTC().Year() > 9999 {
		return 0, core.ErrValueOutOfRange
	}
	return core.DateTimeOf(t), nil
}

// fractionDigits counts the digits after the seconds' decimal point.
func fractionDigits(s string) int {
	i := strings.IndexAny(s, ".,")
	if i < 0 {
		return 0
	}
	n := 0
	for i++; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
		n++
	}
	return n
}

// hasZone reports whether an ISO 8601 time ends in "Z" or a ±hh:mm offset.
func hasZone(s string) bool {
	if strings.HasSuffix(s, "Z") || strings.HasSuffix(s, "z") {
		return true
	}
	i := strings.LastIndexByte(s, 'T')
	return i >= 0 && strings.ContainsAny(s[i:], "+-")
}
