package uri

import "strconv"

// EscapeError is a malformed percent escape, as net/url's EscapeError words it.
type EscapeError string

// Error is `invalid URL escape "%zz"`.
func (e EscapeError) Error() string { return "invalid URL escape " + strconv.Quote(string(e)) }

// InvalidHostError is a byte a host may not hold, as net/url's InvalidHostError words it.
type InvalidHostError string

// Error is `invalid character " " in host name`.
func (e InvalidHostError) Error() string {
	return "invalid character " + strconv.Quote(string(e)) + " in host name"
}

// QueryUnescape decodes a query component as url.QueryUnescape does: "%XX" is the byte
// 0xXX, "+" is a space; a "%" not followed by two hex digits is an EscapeError.
func QueryUnescape(s string) (string, error) {
	if err := checkEscapes(s, false); err != nil {
		return "", err
	}
	return decode(s, true), nil
}

// checkEscapes checks that every "%" in s starts "%XX"; in a host (host set) only a
// non-ASCII byte or "%25" may be escaped and every ASCII byte must be one a host allows.
func checkEscapes(s string, host bool) error {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '%':
			if i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2]) {
				return EscapeError(s[i:min(i+3, len(s))])
			}
			if host && unhex(s[i+1]) < 8 && s[i:i+3] != "%25" {
				return EscapeError(s[i : i+3])
			}
			i += 2
		case host && c < 0x80 && c != '+' && !hostByte(c):
			return InvalidHostError(s[i : i+1])
		}
	}
	return nil
}

// decode replaces each (checked) "%XX" with its byte and, if plus, each "+" with a space.
func decode(s string, plus bool) string {
	i := 0
	for i < len(s) && s[i] != '%' && (!plus || s[i] != '+') {
		i++
	}
	if i == len(s) {
		return s
	}
	b := make([]byte, i, len(s))
	copy(b, s)
	for ; i < len(s); i++ {
		switch {
		case s[i] == '%':
			b = append(b, unhex(s[i+1])<<4|unhex(s[i+2]))
			i += 2
		case s[i] == '+' && plus:
			b = append(b, ' ')
		default:
			b = append(b, s[i])
		}
	}
	return string(b)
}

// escapePath percent-encodes, in upper-case hex, every byte of a path that net/url's
// escape in path mode encodes: all but letters, digits and -_.~$&+,/:;=@.
func escapePath(s string) string {
	const hex = "0123456789ABCDEF"
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if c := s[i]; pathByte(c) {
			b = append(b, c)
		} else {
			b = append(b, '%', hex[c>>4], hex[c&15])
		}
	}
	return string(b)
}

// validEncodedPath reports whether s may stand as the escaped form of its path as
// net/url's validEncoded has it: path bytes, sub-delimiters, brackets and escapes.
func validEncodedPath(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !pathByte(c) && !isAny(c, "!'()*[]%") {
			return false
		}
	}
	return true
}

// alnum reports whether c is an ASCII letter or digit.
func alnum(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// pathByte reports whether c stands for itself in an escaped path.
func pathByte(c byte) bool { return alnum(c) || isAny(c, "-_.~$&+,/:;=@") }

// hostByte reports whether an ASCII c may appear in a host as net/url allows it.
func hostByte(c byte) bool { return alnum(c) || isAny(c, "-_.~!$&'()*+,;=:[]<>\"") }

// isAny reports whether c is one of the bytes of set.
func isAny(c byte, set string) bool {
	for i := 0; i < len(set); i++ {
		if set[i] == c {
			return true
		}
	}
	return false
}

// isHex reports whether c is a hex digit.
func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// unhex is the value of hex digit c.
func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c >= 'a':
		return c - 'a' + 10
	}
	return c - 'A' + 10
}
