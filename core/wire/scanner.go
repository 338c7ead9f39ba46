package wire

import (
	"unicode/utf16"
	"unicode/utf8"
)

// kind is the JSON kind of a scanned value.
type kind uint8

const (
	kindNull kind = iota
	kindFalse
	kindTrue
	kindNumber
	kindString
	kindNested // an object or array, not consumed
)

// span is a range of scanner.buf.
type span struct{ from, to int }

// scanner reads one JSON text. Decoded strings and number texts are appended to buf, so
// that a whole body's text becomes one string at the end (one allocation).
type scanner struct {
	data []byte
	pos  int
	buf  []byte
}

func (s *scanner) fail(msg string) error { return &SyntaxError{Offset: s.pos, Msg: msg} }

// peek skips white space and returns the next byte, or 0 at the end.
func (s *scanner) peek() byte {
	for s.pos < len(s.data) {
		switch c := s.data[s.pos]; c {
		case ' ', '\t', '\n', '\r':
			s.pos++
		default:
			return c
		}
	}
	return 0
}

// text returns the bytes of sp.
func (s *scanner) text(sp span) []byte { return s.buf[sp.from:sp.to] }

// value scans a primitive value. For an object or array it returns kindNested and
// consumes nothing.
func (s *scanner) value() (k kind, sp span, integral bool, err error) {
	switch c := s.peek(); {
	case c == '"':
		sp, err = s.str()
		return kindString, sp, false, err
	case c == '-' || c >= '0' && c <= '9':
		sp, integral, err = s.number()
		return kindNumber, sp, integral, err
	case c == '{' || c == '[':
		return kindNested, sp, false, nil
	case c == 't':
		return kindTrue, sp, false, s.literal("true")
	case c == 'f':
		return kindFalse, sp, false, s.literal("false")
	case c == 'n':
		return kindNull, sp, false, s.literal("null")
	case c == 0:
		return 0, sp, false, s.fail("unexpected end of input")
	}
	return 0, sp, false, s.fail("invalid character " + quoteByte(s.data[s.pos]))
}

func (s *scanner) literal(lit string) error {
	if len(s.data)-s.pos < len(lit) || string(s.data[s.pos:s.pos+len(lit)]) != lit {
		return s.fail("invalid literal")
	}
	s.pos += len(lit)
	return nil
}

// number scans a JSON number and appends its text to buf.
func (s *scanner) number() (sp span, integral bool, err error) {
	start, d := s.pos, s.data
	i := start
	if i < len(d) && d[i] == '-' {
		i++
	}
	switch {
	case i < len(d) && d[i] == '0':
		i++
	case i < len(d) && d[i] >= '1' && d[i] <= '9':
		i = digits(d, i)
	default:
		s.pos = i
		return sp, false, s.fail("invalid number")
	}
	integral = true
	if i < len(d) && d[i] == '.' {
		if i = digits(d, i+1); d[i-1] == '.' {
			s.pos = i
			return sp, false, s.fail("invalid number: no digits after '.'")
		}
		integral = false
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		j := digits(d, i)
		if j == i {
			s.pos = i
			return sp, false, s.fail("invalid number: no digits in exponent")
		}
		i, integral = j, false
	}
	s.pos = i
	sp.from = len(s.buf)
	s.buf = append(s.buf, d[start:i]...)
	return span{sp.from, len(s.buf)}, integral, nil
}

// digits returns the index after the run of decimal digits starting at i.
func digits(d []byte, i int) int {
	for i < len(d) && d[i] >= '0' && d[i] <= '9' {
		i++
	}
	return i
}

// str scans a JSON string (s.pos at its opening quote) and appends its decoded text to
// buf. Invalid UTF-8 and an unpaired surrogate (\ud800 alone) are syntax errors: rewriting
// them to U+FFFD, as encoding/json does, would make distinct keys collide and store a key
// other than the one sent.
func (s *scanner) str() (span, error) {
	s.pos++
	from, d := len(s.buf), s.data
	for {
		i := s.pos
		for i < len(d) && plain[d[i]] {
			i++
		}
		s.buf = append(s.buf, d[s.pos:i]...)
		s.pos = i
		if i >= len(d) {
			return span{}, s.fail("unterminated string")
		}
		switch c := d[i]; {
		case c == '"':
			s.pos++
			return span{from, len(s.buf)}, nil
		case c == '\\':
			if err := s.escape(); err != nil {
				return span{}, err
			}
		case c < 0x20:
			return span{}, s.fail("control character in string")
		default:
			r, size := utf8.DecodeRune(d[i:])
			if r == utf8.RuneError && size <= 1 {
				return span{}, s.fail("invalid UTF-8 in string")
			}
			s.buf = append(s.buf, d[i:i+size]...)
			s.pos += size
		}
	}
}

// escape decodes the escape sequence at s.pos.
func (s *scanner) escape() error {
	if s.pos+1 >= len(s.data) {
		return s.fail("unterminated string")
	}
	c := s.data[s.pos+1]
	s.pos += 2
	switch c {
	case '"', '\\', '/':
		s.buf = append(s.buf, c)
	case 'b':
		s.buf = append(s.buf, '\b')
	case 'f':
		s.buf = append(s.buf, '\f')
	case 'n':
		s.buf = append(s.buf, '\n')
	case 'r':
		s.buf = append(s.buf, '\r')
	case 't':
		s.buf = append(s.buf, '\t')
	case 'u':
		return s.unicode()
	default:
		s.pos -= 2
		return s.fail("invalid escape " + quoteByte(c))
	}
	return nil
}

// unicode decodes the XXXX of a \uXXXX escape (s.pos just after the u), joining a
// surrogate pair written as two escapes.
func (s *scanner) unicode() error {
	r, ok := hex4(s.data, s.pos)
	if !ok {
		return s.fail("invalid \\u escape")
	}
	s.pos += 4
	if utf16.IsSurrogate(r) {
		r2, ok := rune(0), false
		if s.pos+6 <= len(s.data) && s.data[s.pos] == '\\' && s.data[s.pos+1] == 'u' {
			r2, ok = hex4(s.data, s.pos+2)
		}
		if r = utf16.DecodeRune(r, r2); !ok || r == utf8.RuneError {
			s.pos -= 6
			return s.fail("unpaired surrogate in \\u escape")
		}
		s.pos += 6
	}
	s.buf = utf8.AppendRune(s.buf, r)
	return nil
}

// hex4 reads four hex digits at d[i:].
func hex4(d []byte, i int) (rune, bool) {
	if i+4 > len(d) {
		return 0, false
	}
	var r rune
	for _, c := range d[i : i+4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		case c >= 'A' && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

func quoteByte(c byte) string {
	if c >= 0x20 && c < 0x7f {
		return "'" + string(rune(c)) + "'"
	}
	const hexDigits = "0123456789abcdef"
	return "0x" + string([]byte{hexDigits[c>>4], hexDigits[c&15]})
}
