package rest

import (
	"strings"
	"sync/atomic"
)

// baseCache keeps the base URL (scheme, host, and the account's path segment when the
// path names it) of an account's last request: the next request of the same client has
// the same, and reuses it rather than building it again.
type baseCache struct{ last atomic.Pointer[string] }

// get returns scheme + "://" + host + slash + name, the last one built when it is the same.
func (b *baseCache) get(scheme, host, slash, name string) string {
	if p := b.last.Load(); p != nil && isJoin(*p, scheme, "://", host, slash, name) {
		return *p
	}
	s := scheme + "://" + host + slash + name
	b.last.Store(&s)
	return s
}

// isJoin reports whether s is the concatenation of parts.
func isJoin(s string, parts ...string) bool {
	for _, p := range parts {
		var ok bool
		if s, ok = strings.CutPrefix(s, p); !ok {
			return false
		}
	}
	return s == ""
}
