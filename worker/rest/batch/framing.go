package batch

import (
	"bytes"
	"errors"
	"io"
	"strings"
)

// errCutShort ends the streams that framed gives to multipart.Reader.
var errCutShort = errors.New("body ends before the closing delimiter")

// framed returns b followed by a line ending and then errCutShort in place of io.EOF.
// With it, multipart.Reader's NextRawPart returns a bare io.EOF only after a closing
// delimiter (the line ending completes one that ends b, as a changeset's does); a body
// cut short in a part's headers, which it would otherwise also report as io.EOF, is an
// error.
func framed(b []byte, boundary string) io.Reader {
	return io.MultiReader(bytes.NewReader(b), strings.NewReader(lineEnding(b, boundary)), cutShort{})
}

// lineEnding returns "\n" if the first delimiter of boundary in b ends its line with a
// bare LF (multipart.Reader then expects LF throughout), else "\r\n".
func lineEnding(b []byte, boundary string) string {
	i := bytes.Index(b, []byte("--"+boundary))
	if i < 0 {
		return "\r\n"
	}
	rest := bytes.TrimLeft(b[i+2+len(boundary):], " \t")
	if len(rest) > 0 && rest[0] == '\n' {
		return "\n"
	}
	return "\r\n"
}

type cutShort struct{}

func (cutShort) Read([]byte) (int, error) { return 0, errCutShort }
