package batch

import (
	"sort"
	"strings"

	"github.com/tabletopdb/tabletop/worker/rest/exchange"
)

// headerOrder is the order in which the service writes a sub-response's headers
// (canonical names); others follow in name order.
var headerOrder = []string{
	"X-Content-Type-Options", "Cache-Control", "Preference-Applied", "Dataserviceversion",
	"Content-Type", "Location", "Dataserviceid", "Etag",
}

// envelope reports whether canonical names a header of the outer HTTP response, which
// the service does not repeat in sub-responses. (Switches here, not package-level maps:
// those are built by code at every start of the program.)
func envelope(canonical string) bool {
	switch canonical {
	case "Date", "Server", "Connection", "Content-Length", "Transfer-Encoding",
		"X-Ms-Request-Id", "X-Ms-Version", "X-Ms-Client-Request-Id", "X-Ms-Error-Code":
		return true
	}
	return false
}

// appendHeader appends h as "Name: value\r\n" lines in the service's order and spelling.
// It leaves out envelope headers and names that are not HTTP tokens, and turns CR and LF
// in values into spaces.
func appendHeader(b []byte, h exchange.Header) []byte {
	names := make([]string, 0, len(h))
	for name := range h {
		if isToken(name) && !envelope(exchange.CanonicalKey(name)) {
			names = append(names, name)
		}
	}
	sort.Slice(names, func(i, j int) bool { return headerLess(names[i], names[j]) })
	for _, name := range names {
		wire := wireName(name)
		for _, v := range h[name] {
			b = append(b, wire...)
			b = append(b, ": "...)
			b = append(b, strings.Map(noNewline, v)...)
			b = append(b, "\r\n"...)
		}
	}
	return b
}

// headerLess orders names by their place in headerOrder, then by canonical name.
func headerLess(a, b string) bool {
	ca, cb := exchange.CanonicalKey(a), exchange.CanonicalKey(b)
	ra, rb := headerRank(ca), headerRank(cb)
	if ra != rb {
		return ra < rb
	}
	if ca != cb {
		return ca < cb
	}
	return a < b
}

func headerRank(canonical string) int {
	for i, name := range headerOrder {
		if name == canonical {
			return i
		}
	}
	return len(headerOrder)
}

// wireName returns the service's spelling of a header name. The JS client matches the
// literal "ETag: ".
func wireName(name string) string {
	switch canonical := exchange.CanonicalKey(name); canonical {
	case "Etag":
		return "ETag"
	case "Dataserviceversion":
		return "DataServiceVersion"
	case "Dataserviceid":
		return "DataServiceId"
	default:
		return canonical
	}
}

func noNewline(r rune) rune {
	if r == '\r' || r == '\n' {
		return ' '
	}
	return r
}

// isToken reports whether s is a non-empty HTTP token (RFC 9110 tchar).
func isToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
			strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0
		if !ok {
			return false
		}
	}
	return true
}
