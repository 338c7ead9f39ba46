package core

import (
	"bytes"
	"strings"
)

// ETagAny is the If-Match value that matches any existing entity.
const ETagAny = "*"

// ETagOf returns the ETag for an entity last written at ts: W/"datetime'<ts>'" with the
// colons of the timestamp percent-encoded, as Azure writes it.
func ETagOf(ts DateTime) string { return string(AppendETag(make([]byte, 0, 48), ts)) }

// AppendETag appends ETagOf(ts) to b.
func AppendETag(b []byte, ts DateTime) []byte {
	var tmp [40]byte
	b = append(b, `W/"datetime'`...)
	text := ts.AppendText(tmp[:0])
	for {
		i := bytes.IndexByte(text, ':')
		if i < 0 {
			break
		}
		b = append(append(b, text[:i]...), "%3A"...)
		text = text[i+1:]
	}
	b = append(b, text...)
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
