package model

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
	return AppendETagText(b, ts.AppendText(tmp[:0]), `"`)
}

// AppendETagText appends the ETag of an entity whose Timestamp reads tsText
// (DateTime.AppendText), with its two double quotes written as quote: `"` for the ETag
// itself, `\"` for the ETag inside a JSON string.
func AppendETagText(b, tsText []byte, quote string) []byte {
	b = append(append(append(b, "W/"...), quote...), "datetime'"...)
	for {
		i := bytes.IndexByte(tsText, ':')
		if i < 0 {
			break
		}
		b = append(append(b, tsText[:i]...), "%3A"...)
		tsText = tsText[i+1:]
	}
	b = append(append(b, tsText...), '\'')
	return append(b, quote...)
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
