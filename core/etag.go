package core

import "strings"

// ETagAny is the If-Match value that matches any existing entity.
const ETagAny = "*"

// ETagOf returns the ETag for an entity last written at ts: W/"datetime'<ts>'" with the
// colons of the timestamp percent-encoded, as Azure writes it.
func ETagOf(ts DateTime) string { return string(AppendETag(make([]byte, 0, 48), ts)) }

// AppendETag appends ETagOf(ts) to b.
func AppendETag(b []byte, ts DateTime) []byte {
	var tmp [32]byte
	b = append(b, `W/"datetime'`...)
	for _, c := range ts.AppendText(tmp[:0]) {
		if c == ':' {
			b = append(b, "%3A"...)
		} else {
			b = append(b, c)
		}
	}
	return append(b, `'"`...)
}

// CheckETag validates an If-Match value: "*" or a weak ETag W/"…".
func CheckETag(etag string) error {
	if etag == ETagAny {
		return nil
	}
	if len(etag) < 5 || !strings.HasPrefix(etag, `W/"`) || !strings.HasSuffix(etag, `"`) {
		return ErrETagInvalid
	}
	return nil
}

// etagMatches reports whether If-Match value want is satisfied by entity e.
func etagMatches(want string, e *Entity) bool { return want == ETagAny || want == e.ETag() }
