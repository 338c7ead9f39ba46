package batch

import (
	"bytes"
	"errors"
)

// errCutShort is the error a part's body ends with when the data ends before the next
// delimiter.
var errCutShort = errors.New("body ends before the closing delimiter")

// A body is read as if a line ending followed it and then errCutShort instead of io.EOF:
// the line ending completes a closing delimiter that ends the body (as a changeset's
// does), and a body cut short, in a part's headers or body, is an error rather than a
// clean end.

// lineEnding returns "\n" if the first delimiter of boundary in b ends its line with a
// bare LF (delimiters then end in LF throughout), else "\r\n".
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
