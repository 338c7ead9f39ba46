package batch

import (
	"bufio"
	"bytes"
	"fmt"

	"github.com/tabletopdb/tabletop/worker/rest/exchange"
)

// lineReader reads lines and MIME headers exactly as net/textproto's Reader reads them
// (ReadLine, ReadMIMEHeader), so that the batch reader does not link net/textproto and,
// through it, net.
type lineReader struct{ r *bufio.Reader }

// readLine returns the next line without its "\n" or "\r\n".
func (lr lineReader) readLine() ([]byte, error) {
	var line []byte
	for {
		l, more, err := lr.r.ReadLine()
		if err != nil {
			return nil, err
		}
		line = append(line, l...)
		if !more {
			return line, nil
		}
	}
}

// readMIMEHeader reads header lines up to a blank line: "Name: value", names canonical
// (a name with a space is kept as it is), values with leading white space dropped,
// continuation lines (starting with white space) joined with a space. A first line that
// starts with white space, a line without a colon, a name with a byte outside HTTP tokens
// and a value with a control character are errors; so is the input ending first.
func (lr lineReader) readMIMEHeader() (exchange.Header, error) {
	h := exchange.Header{}
	if b, err := lr.r.Peek(1); err == nil && (b[0] == ' ' || b[0] == '\t') {
		line, _ := lr.readLine()
		return h, fmt.Errorf("malformed MIME header initial line: %q", line)
	}
	for {
		kv, err := lr.readContinuedLine()
		if len(kv) == 0 {
			return h, err
		}
		k, v, _ := bytes.Cut(kv, []byte(":"))
		key, ok := mimeKey(k)
		if !ok || !validValue(v) {
			return h, fmt.Errorf("malformed MIME header line: %q", kv)
		}
		h[key] = append(h[key], string(bytes.TrimLeft(v, " \t")))
		if err != nil {
			return h, err
		}
	}
}

// readContinuedLine reads a header line and its continuation lines, trimmed of white
// space at both ends and joined by one space; a blank line is returned empty.
func (lr lineReader) readContinuedLine() ([]byte, error) {
	line, err := lr.readLine()
	if err != nil || len(line) == 0 {
		return line, err
	}
	if bytes.IndexByte(line, ':') < 0 {
		return nil, fmt.Errorf("malformed MIME header: missing colon: %q", line)
	}
	buf := append([]byte(nil), bytes.Trim(line, " \t")...)
	for lr.skipSpace() > 0 {
		buf = append(buf, ' ')
		line, err := lr.readLine()
		if err != nil {
			break
		}
		buf = append(buf, bytes.Trim(line, " \t")...)
	}
	return buf, nil
}

// skipSpace skips spaces and tabs and reports how many.
func (lr lineReader) skipSpace() int {
	n := 0
	for {
		c, err := lr.r.ReadByte()
		if err != nil {
			return n
		}
		if c != ' ' && c != '\t' {
			lr.r.UnreadByte()
			return n
		}
		n++
	}
}

// mimeKey is the canonical form of a header name: false if it is empty or holds a byte
// outside HTTP tokens other than a space; a name with a space is kept as it is.
func mimeKey(k []byte) (string, bool) {
	if len(k) == 0 {
		return "", false
	}
	space := false
	for _, c := range k {
		switch {
		case exchange.IsTokenByte(c):
		case c == ' ':
			space = true
		default:
			return "", false
		}
	}
	if space {
		return string(k), true
	}
	return exchange.CanonicalKey(string(k)), true
}

// validValue reports whether v may be a header value: visible characters, space, tab
// and bytes above ASCII; no other control character.
func validValue(v []byte) bool {
	for _, c := range v {
		if c < 0x80 && c != ' ' && c != '\t' && (c < 0x21 || c > 0x7e) {
			return false
		}
	}
	return true
}
