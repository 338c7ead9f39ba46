package rest

import (
	"strings"

	"github.com/tabletopdb/tabletop/core/wire"
	"github.com/tabletopdb/tabletop/worker/rest/exchange"
)

// negotiate picks the response's JSON metadata level from $format, else Accept. Atom, XML
// or no acceptable JSON is ErrAtomNotSupported when strict; operations that answer no body
// are lenient and keep minimal metadata for their errors.
func (c *call) negotiate(strict bool) error {
	m, ok := wire.ParseFormat(formatOf(c.r.Header, c.query.Get("$format")))
	c.meta = m
	if !ok && strict {
		return ErrAtomNotSupported
	}
	return nil
}

// readJSON reads a JSON request body of at most limit bytes. An Atom or XML body is
// ErrAtomNotSupported; a larger body is ErrBodyTooLarge, found before or while reading.
func (c *call) readJSON(limit int64) ([]byte, error) {
	// Only a value naming "xml" (in any case) can have a media type that does: the
	// others, JSON above all, are not parsed.
	if ct := c.r.Header.Get("Content-Type"); containsFold(ct, "xml") {
		mt, _, _ := exchange.ParseMediaType(ct)
		if strings.Contains(mt, "xml") {
			return nil, ErrAtomNotSupported
		}
	}
	return c.readBody(limit)
}

// containsFold reports whether s contains the lower-case ASCII word, in any case.
func containsFold(s, word string) bool {
	for i := 0; i+len(word) <= len(s); i++ {
		if strings.EqualFold(s[i:i+len(word)], word) {
			return true
		}
	}
	return false
}
