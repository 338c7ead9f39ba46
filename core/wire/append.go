package wire

import (
	"math"
	"unicode/utf8"

	"github.com/tabletopdb/tabletop/core/model"
)

const hexDigits = "0123456789abcdef"

// plain[c] reports whether byte c stands for itself in a JSON string: ASCII other than
// control characters, '"' and '\'. The scanner and the writer share it.
var plain = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// AppendString appends s as a JSON string literal, escaped as the entity codec escapes
// strings; the REST layer writes its error bodies with it.
func AppendString(b []byte, s string) []byte {
	b = append(b, '"')
	b = appendStringBody(b, s)
	return append(b, '"')
}

// appendStringBody appends s JSON-escaped, without quotes: '"', '\\' and control
// characters escaped, U+2028 and U+2029 as \u escapes (for JavaScript), invalid UTF-8 as
// U+FFFD, everything else as is.
func appendStringBody(b []byte, s string) []byte {
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if plain[c] {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			b = appendEscape(append(b, s[start:i]...), c)
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			if r == utf8.RuneError {
				b = append(b, "\ufffd"...)
			} else {
				b = append(b, `\u202`...)
				b = append(b, hexDigits[r&0xf])
			}
			start = i + size
		}
		i += size
	}
	return append(b, s[start:]...)
}

// appendEscape appends the escape of ASCII byte c.
func appendEscape(b []byte, c byte) []byte {
	switch c {
	case '"', '\\':
		return append(b, '\\', c)
	case '\n':
		return append(b, '\\', 'n')
	case '\r':
		return append(b, '\\', 'r')
	case '\t':
		return append(b, '\\', 't')
	}
	return append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
}

// appendDouble appends f as a JSON value that reads back as a Double: core's text form
// (model.AppendDouble: "5.0", "1e+21"), quoted for NaN, Infinity and -Infinity.
func appendDouble(b []byte, f float64) []byte {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return append(model.AppendDouble(append(b, '"'), f), '"')
	}
	return model.AppendDouble(b, f)
}

// appendETag appends the entity ETag (model.AppendETagText) as a JSON string, given the
// text of its Timestamp (model.DateTime.AppendText):
// "W/\"datetime'2021-08-31T15%3A40%3A49.6724407Z'\"".
func appendETag(b []byte, tsText []byte) []byte {
	return append(model.AppendETagText(append(b, '"'), tsText, `\"`), '"')
}

// AppendKeyPredicate appends "table(PartitionKey='pk',RowKey='rk')", the entity's path
// below the base URL, as Azure writes it in odata.id, odata.editLink and the Location
// and DataServiceId headers: single quotes doubled, and bytes that may not appear in a URL
// path segment percent-encoded. The result is plain ASCII.
func AppendKeyPredicate(b []byte, table, pk, rk string) []byte {
	b = appendPathSegment(b, table)
	b = append(b, "(PartitionKey='"...)
	b = appendPathSegment(b, pk)
	b = append(b, "',RowKey='"...)
	b = appendPathSegment(b, rk)
	return append(b, "')"...)
}

// appendPathSegment appends s percent-encoded for a URL path segment (RFC 3986 pchar),
// with each single quote doubled.
func appendPathSegment(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\'':
			b = append(b, '\'', '\'')
		case pathSafe(c):
			b = append(b, c)
		default:
			b = append(b, '%', "0123456789ABCDEF"[c>>4], "0123456789ABCDEF"[c&0xf])
		}
	}
	return b
}

// pathSafe reports whether c may appear as is in a URL path segment: unreserved, sub-delims,
// ':' and '@'.
func pathSafe(c byte) bool {
	switch {
	case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		return true
	}
	switch c {
	case '-', '.', '_', '~', '!', '$', '&', '(', ')', '*', '+', ',', ';', '=', ':', '@':
		return true
	}
	return false
}
