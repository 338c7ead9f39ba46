package exchange

import (
	"errors"
	"strconv"
	"strings"
	"unicode"
)

// Errors of ParseMediaType.
var (
	// ErrMediaType means a media type is not "type" or "type/subtype" of MIME tokens.
	ErrMediaType = errors.New("malformed media type")
	// ErrMediaParameter means a media type's parameters do not parse, or one is given
	// twice with different values.
	ErrMediaParameter = errors.New("malformed media type parameter")
)

// ParseMediaType parses a Content-Type value as mime.ParseMediaType does (RFC 2045 and
// 2616, with RFC 2231 continuations and encodings): the media type in lower case and the
// parameters by lower-case name. On ErrMediaParameter the media type is still returned.
func ParseMediaType(v string) (mediaType string, params map[string]string, err error) {
	base, _, _ := strings.Cut(v, ";")
	mediaType = strings.TrimSpace(strings.ToLower(base))
	if !validMediaType(mediaType) {
		return "", nil, ErrMediaType
	}
	params = map[string]string{}
	var pieces map[string]map[string]string // RFC 2231: base name -> name with "*" -> value
	for v = v[len(base):]; ; {
		v = strings.TrimLeftFunc(v, unicode.IsSpace)
		if v == "" {
			break
		}
		key, value, rest := mediaParam(v)
		if key == "" {
			if strings.TrimSpace(rest) == ";" { // a trailing semicolon
				break
			}
			return mediaType, nil, ErrMediaParameter
		}
		into := params
		if baseName, _, ok := strings.Cut(key, "*"); ok {
			if pieces == nil {
				pieces = map[string]map[string]string{}
			}
			if into = pieces[baseName]; into == nil {
				into = map[string]string{}
				pieces[baseName] = into
			}
		}
		if old, ok := into[key]; ok && old != value {
			return "", nil, ErrMediaParameter
		}
		into[key] = value
		v = rest
	}
	for name, parts := range pieces {
		if value, ok := joinPieces(name, parts); ok {
			params[name] = value
		}
	}
	return mediaType, params, nil
}

// validMediaType reports whether s is "type" or "type/subtype".
func validMediaType(s string) bool {
	typ, rest := mimeToken(s)
	if typ == "" {
		return false
	}
	if rest == "" {
		return true
	}
	rest, ok := strings.CutPrefix(rest, "/")
	if !ok {
		return false
	}
	sub, rest := mimeToken(rest)
	return sub != "" && rest == ""
}

// joinPieces is the value of an RFC 2231 parameter from its pieces: name* (encoded), or
// name*0, name*1… each plain or encoded (name*0*, …).
func joinPieces(name string, parts map[string]string) (string, bool) {
	if v, ok := parts[name+"*"]; ok {
		return decode2231(v)
	}
	var b strings.Builder
	valid := false
	for n := 0; ; n++ {
		plain := name + "*" + strconv.Itoa(n)
		if v, ok := parts[plain]; ok {
			valid = true
			b.WriteString(v)
			continue
		}
		v, ok := parts[plain+"*"]
		if !ok {
			break
		}
		valid = true
		if n == 0 {
			if dec, ok := decode2231(v); ok {
				b.WriteString(dec)
			}
		} else {
			dec, _ := unescapePercent(v)
			b.WriteString(dec)
		}
	}
	return b.String(), valid
}

// decode2231 decodes charset'language'value, for US-ASCII and UTF-8.
func decode2231(v string) (string, bool) {
	charset, v, ok := strings.Cut(v, "'")
	if !ok {
		return "", false
	}
	if _, v, ok = strings.Cut(v, "'"); !ok {
		return "", false
	}
	if c := strings.ToLower(charset); c != "us-ascii" && c != "utf-8" {
		return "", false
	}
	return unescapePercent(v)
}

// unescapePercent decodes %XX escapes; a malformed one makes the whole value invalid.
func unescapePercent(s string) (string, bool) {
	var b []byte
	for i := 0; i < len(s); i++ {
		if s[i] != '%' {
			b = append(b, s[i])
			continue
		}
		if i+2 >= len(s) {
			return "", false
		}
		n, err := strconv.ParseUint(s[i+1:i+3], 16, 8)
		if err != nil || s[i+1] == '+' || s[i+1] == '-' {
			return "", false
		}
		b = append(b, byte(n))
		i += 2
	}
	return string(b), true
}

// mediaParam reads "; name=value" (value a token or a quoted string) from the start of v.
// On failure name is "" and rest is v.
func mediaParam(v string) (name, value, rest string) {
	rest = strings.TrimLeftFunc(v, unicode.IsSpace)
	rest, ok := strings.CutPrefix(rest, ";")
	if !ok {
		return "", "", v
	}
	name, rest = mimeToken(strings.TrimLeftFunc(rest, unicode.IsSpace))
	name = strings.ToLower(name)
	if name == "" {
		return "", "", v
	}
	rest, ok = strings.CutPrefix(strings.TrimLeftFunc(rest, unicode.IsSpace), "=")
	if !ok {
		return "", "", v
	}
	rest = strings.TrimLeftFunc(rest, unicode.IsSpace)
	value, after := mimeValue(rest)
	if value == "" && after == rest {
		return "", "", v
	}
	return name, value, after
}

// mimeValue reads a token or a quoted string; on failure value is "" and rest is v.
func mimeValue(v string) (value, rest string) {
	if v == "" || v[0] != '"' {
		return mimeToken(v)
	}
	var b strings.Builder
	for i := 1; i < len(v); i++ {
		switch c := v[i]; {
		case c == '"':
			return b.String(), v[i+1:]
		case c == '\\' && i+1 < len(v) && isTSpecial(v[i+1]):
			// An escaped special; any other backslash is literal (as MSIE sends paths).
			b.WriteByte(v[i+1])
			i++
		case c == '\r' || c == '\n':
			return "", v
		default:
			b.WriteByte(c)
		}
	}
	return "", v
}

// mimeToken reads a MIME token (RFC 2045) from the start of v.
func mimeToken(v string) (token, rest string) {
	for i := 0; i < len(v); i++ {
		if c := v[i]; c <= ' ' || c >= 0x7f || isTSpecial(c) {
			return v[:i], v[i:]
		}
	}
	return v, ""
}

// isTSpecial reports whether c is one of RFC 2045's tspecials.
func isTSpecial(c byte) bool { return strings.IndexByte(`()<>@,;:\"/[]?=`, c) >= 0 }
