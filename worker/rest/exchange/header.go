package exchange

// Header is a request's or an answer's headers, by canonical name (CanonicalKey), as
// net/http's Header: the two convert to each other without copying.
type Header map[string][]string

// Get returns the first value of the header name, "" if there is none.
func (h Header) Get(name string) string {
	if v := h[CanonicalKey(name)]; len(v) > 0 {
		return v[0]
	}
	return ""
}

// Values returns all values of the header name, nil if there is none.
func (h Header) Values(name string) []string { return h[CanonicalKey(name)] }

// Set makes value the only value of the header name.
func (h Header) Set(name, value string) { h[CanonicalKey(name)] = []string{value} }

// Add appends value to the values of the header name.
func (h Header) Add(name, value string) {
	k := CanonicalKey(name)
	h[k] = append(h[k], value)
}

// Del removes the header name.
func (h Header) Del(name string) { delete(h, CanonicalKey(name)) }

// CanonicalKey is the canonical spelling of the header name s, as net/textproto's
// CanonicalMIMEHeaderKey spells it: the first letter and each letter after a hyphen in
// upper case, the others in lower case ("x-ms-date" is "X-Ms-Date"). A name holding a
// byte that is not an HTTP token character (RFC 9110 tchar) is returned unchanged.
func CanonicalKey(s string) string {
	upper, changed := true, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !IsTokenByte(c) {
			return s
		}
		changed = changed || upper && 'a' <= c && c <= 'z' || !upper && 'A' <= c && c <= 'Z'
		upper = c == '-'
	}
	if !changed {
		return s
	}
	var buf [64]byte // names up to 64 bytes are canonicalized here, on the stack
	b := append(buf[:0], s...)
	upper = true
	for i, c := range b {
		switch {
		case upper && 'a' <= c && c <= 'z':
			b[i] = c - 'a' + 'A'
		case !upper && 'A' <= c && c <= 'Z':
			b[i] = c - 'A' + 'a'
		}
		upper = c == '-'
	}
	if k := serviceKey(b); k != "" {
		return k
	}
	return string(b)
}

// serviceKey returns the canonical names the Table service spells otherwise (x-ms-version,
// ETag…), read or written on most requests, without allocating; "" for any other.
func serviceKey(b []byte) string {
	switch string(b) {
	case "X-Ms-Version":
		return "X-Ms-Version"
	case "X-Ms-Date":
		return "X-Ms-Date"
	case "X-Ms-Request-Id":
		return "X-Ms-Request-Id"
	case "X-Ms-Client-Request-Id":
		return "X-Ms-Client-Request-Id"
	case "X-Ms-Error-Code":
		return "X-Ms-Error-Code"
	case "X-Http-Method":
		return "X-Http-Method"
	case "Etag":
		return "Etag"
	case "Dataserviceversion":
		return "Dataserviceversion"
	case "Dataserviceid":
		return "Dataserviceid"
	case "Content-Md5":
		return "Content-Md5"
	case "X-Ms-Continuation-Nextpartitionkey":
		return "X-Ms-Continuation-Nextpartitionkey"
	case "X-Ms-Continuation-Nextrowkey":
		return "X-Ms-Continuation-Nextrowkey"
	}
	return ""
}

// IsTokenByte reports whether c may appear in an HTTP token, such as a header name
// (RFC 9110 tchar).
// It reads one bit of tokenLow or tokenHigh: CanonicalKey calls it for each byte of each
// header name a request reads.
func IsTokenByte(c byte) bool {
	m := uint64(tokenLow)
	if c >= 64 {
		m = tokenHigh
	}
	return c < 128 && m>>(c&63)&1 != 0
}

// tokenLow and tokenHigh have bit c%64 set for each token byte c below 64 and from 64 to
// 127: the letters, the digits and !#$%&'*+-.^_`|~.
const (
	tokenLow  = 0x03ff_6cfa_0000_0000
	tokenHigh = 0x57ff_ffff_c7ff_fffe
)
