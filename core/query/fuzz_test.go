package query

import (
	"errors"
	"testing"
	"unicode/utf8"

	"github.com/tabletopdb/tabletop/core/model"
)

var filterSeeds = []string{
	"", "PartitionKey eq 'a'", "PartitionKey eq 'a' and RowKey ge '1' and RowKey lt '5'",
	"not (PartitionKey ne 'a' or RowKey ne '1')", "(PartitionKey eq 'b' and RowKey lt '2') or PartitionKey gt 'y'",
	"Age eq 30 or Name eq 'x' and Active eq false", "'pk1' eq PartitionKey", "Big eq 9007199254740993L",
	"Score eq 25e-1", "Born eq datetime'1990-01-02T03:04:05.1234567Z'", "Id eq guid'0d391d16-97f1-4b9a-be68-4cc871f90001'",
	"Blob eq X'0aff'", "Blob eq binary'0AFF'", "Quote eq 'it''s'", "Age eq 3000000000", "(Age eq 30",
	"Name eq 'é' or #", "not not Age eq -5", "Active ne true", "x eq 1.5L", "t eq datetime'2021-08-31T17:40:49+02:00'",
}

// FuzzParseFilter checks that parsing never panics, that errors are positioned
// *SyntaxErrors, that a parsed filter prints to a filter that parses back to the same
// meaning, and that its ranges hold every entity it matches.
func FuzzParseFilter(f *testing.F) {
	for _, s := range filterSeeds {
		f.Add(s)
	}
	es := append(sampleKeys(), fixture(f))
	f.Fuzz(func(t *testing.T, s string) {
		flt, err := ParseFilter(s)
		if err != nil {
			checkSyntaxError(t, s, err)
			return
		}
		text := flt.String()
		again, err := ParseFilter(text)
		if err != nil {
			t.Fatalf("%q prints as %q, which does not parse: %v", s, text, err)
		}
		if again.String() != text {
			t.Fatalf("%q prints as %q, then as %q", s, text, again.String())
		}
		for _, e := range es {
			if flt.Matches(e) != again.Matches(e) {
				t.Fatalf("%q and its printed form %q disagree on (%q, %q)", s, text, e.PartitionKey, e.RowKey)
			}
		}
		checkRanges(t, flt, flt.Ranges(), es)
	})
}

// checkSyntaxError fails unless err is a *SyntaxError at a position inside src, wrapping
// a sentinel of this package.
func checkSyntaxError(t *testing.T, src string, err error) {
	t.Helper()
	var se *SyntaxError
	if !errors.As(err, &se) {
		t.Fatalf("%q: error %T is not a *SyntaxError: %v", src, err, err)
	}
	if se.Pos < 0 || se.Pos > utf8.RuneCountInString(src) {
		t.Fatalf("%q: position %d is outside the text", src, se.Pos)
	}
	for _, s := range []error{ErrFilterSyntax, ErrLiteralOutOfRange, ErrTooManyComparisons, ErrSelectInvalid} {
		if errors.Is(err, s) {
			return
		}
	}
	t.Fatalf("%q: error wraps no sentinel: %v", src, err)
}

// FuzzDecodeToken checks that decoding continuation tokens never panics and that every
// token it accepts is the one this package would issue for the key it decodes to.
func FuzzDecodeToken(f *testing.F) {
	a, b := EncodeContinuation("p1", "r1")
	f.Add(a, b)
	f.Add("", "")
	f.Add(a, "")
	f.Add("AVBw", "AVJy==")
	f.Add(EncodeTableToken("Orders"), "")
	f.Fuzz(func(t *testing.T, nextPK, nextRK string) {
		pk, rk, ok, err := DecodeContinuation(nextPK, nextRK)
		if err != nil && !errors.Is(err, ErrTokenInvalid) {
			t.Fatalf("error %v is not ErrTokenInvalid", err)
		}
		if ok {
			if model.ValidateKey(model.PartitionKeyName, pk) != nil || model.ValidateKey(model.RowKeyName, rk) != nil {
				t.Fatalf("decoded invalid keys %q %q", pk, rk)
			}
			if x, y := EncodeContinuation(pk, rk); x != nextPK || y != nextRK {
				t.Fatalf("tokens %q %q decode to %q %q, which encode as %q %q", nextPK, nextRK, pk, rk, x, y)
			}
		}
		name, ok, err := DecodeTableToken(nextPK)
		if err != nil && !errors.Is(err, ErrTokenInvalid) {
			t.Fatalf("error %v is not ErrTokenInvalid", err)
		}
		if ok && EncodeTableToken(name) != nextPK {
			t.Fatalf("table token %q decodes to %q, which encodes as %q", nextPK, name, EncodeTableToken(name))
		}
	})
}

// FuzzParseSelect checks that parsing $select never panics and keeps only valid names.
func FuzzParseSelect(f *testing.F) {
	for _, s := range []string{"", "*", "Name,Age", " a , b ", "a,,b", "PartitionKey,Timestamp", "Na-me"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sel, err := ParseSelect(s)
		if err != nil {
			checkSyntaxError(t, s, err)
			return
		}
		for _, n := range sel {
			if validSelectName(n) != nil {
				t.Fatalf("%q: selected invalid name %q", s, n)
			}
		}
	})
}
