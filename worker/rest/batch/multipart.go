package batch

import (
	"bufio"
	"bytes"
	"fmt"
	"io"

	"github.com/tabletopdb/tabletop/worker/rest/exchange"
)

// maxPartHeaders is the most header lines a part may have, as mime/multipart allows.
const maxPartHeaders = 10000

// partReader splits a multipart body held in memory into its parts, exactly as
// mime/multipart's Reader.NextRawPart splits the same bytes when a read error, not
// io.EOF, follows them (see framed): a boundary delimiter line is "--boundary", optional
// spaces and tabs, and the line ending (a bare "\n" on the first one switches to "\n"
// throughout); lines before the first are a preamble; a part's body ends at the line
// ending before the next delimiter ("--boundary" followed by white space, "--" or the end).
// It does not link mime/multipart (with mime and mime/quotedprintable, a sizeable share
// of the edge build's code, for one reader).
type partReader struct {
	data         []byte // the body and the line ending framed adds
	pos          int
	dashBoundary []byte // "--boundary"
	nl           []byte // "\r\n", or "\n" after a first delimiter line ending in "\n"
	partsRead    int
}

// part is one part: its headers and its body (ending in errCutShort if the data ended
// before a delimiter).
type part struct {
	Header exchange.Header
	body   io.Reader
}

func (p *part) Read(b []byte) (int, error) { return p.body.Read(b) }

func newPartReader(body []byte, boundary string) *partReader {
	data := append(append(make([]byte, 0, len(body)+2), body...), lineEnding(body, boundary)...)
	return &partReader{data: data, dashBoundary: []byte("--" + boundary), nl: []byte("\r\n")}
}

// next returns the next part, io.EOF after the closing delimiter, or an error for framing
// it cannot follow (a body cut short included).
func (r *partReader) next() (*part, error) {
	if len(r.dashBoundary) == 2 {
		return nil, fmt.Errorf("multipart: boundary is empty")
	}
	expectNewPart := false
	for {
		end := bytes.IndexByte(r.data[r.pos:], '\n')
		if end < 0 {
			return nil, fmt.Errorf("multipart: NextPart: %w", errCutShort)
		}
		line := r.data[r.pos : r.pos+end+1]
		r.pos += end + 1
		switch {
		case r.isDelimiter(line):
			r.partsRead++
			return r.part()
		case r.isFinal(line):
			return nil, io.EOF
		case expectNewPart:
			return nil, fmt.Errorf("multipart: expecting a new Part; got line %q", line)
		case r.partsRead == 0: // the preamble
		case bytes.Equal(line, r.nl): // the line ending before a delimiter
			expectNewPart = true
		default:
			return nil, fmt.Errorf("multipart: unexpected line in Next(): %q", line)
		}
	}
}

// part reads a part's headers and finds where its body ends.
func (r *partReader) part() (*part, error) {
	rest := bytes.NewReader(r.data[r.pos:])
	br := bufio.NewReader(io.MultiReader(rest, cutShort{})) // headers cut short are an error, not an end
	h, err := lineReader{br}.readMIMEHeader()
	if err != nil {
		return nil, err
	}
	lines := 0
	for _, v := range h {
		lines += len(v)
	}
	if lines > maxPartHeaders {
		return nil, fmt.Errorf("multipart: message too large")
	}
	r.pos = len(r.data) - rest.Len() - br.Buffered()
	start := r.pos
	end, ended := r.bodyEnd(start)
	r.pos = end
	p := &part{Header: h, body: bytes.NewReader(r.data[start:end])}
	if !ended {
		p.body = io.MultiReader(p.body, cutShort{})
	}
	return p, nil
}

// bodyEnd finds the end of the body starting at s: the line ending before the next
// delimiter, or s itself if a delimiter starts the body; ended is false if the data ends
// first.
func (r *partReader) bodyEnd(s int) (end int, ended bool) {
	from := s
	if bytes.HasPrefix(r.data[s:], r.dashBoundary) {
		if r.delimiterAfter(s, len(r.dashBoundary)) {
			return s, true
		}
		from = s + len(r.dashBoundary)
	}
	nlDash := append(append([]byte{}, r.nl...), r.dashBoundary...)
	for {
		i := bytes.Index(r.data[from:], nlDash)
		if i < 0 {
			return len(r.data), false
		}
		if r.delimiterAfter(from+i, len(nlDash)) {
			return from + i, true
		}
		from += i + len(nlDash)
	}
}

// delimiterAfter reports whether the prefix of n bytes at i is a delimiter: followed by
// white space, "--", or the end of the data (a read error follows it, see framed).
func (r *partReader) delimiterAfter(i, n int) bool {
	rest := r.data[i+n:]
	switch {
	case len(rest) == 0:
		return true
	case rest[0] == ' ' || rest[0] == '\t' || rest[0] == '\r' || rest[0] == '\n':
		return true
	}
	return len(rest) >= 2 && rest[0] == '-' && rest[1] == '-'
}

// isDelimiter reports whether line is a delimiter line, switching to "\n" line endings
// on the first one if it ends so.
func (r *partReader) isDelimiter(line []byte) bool {
	rest, ok := bytes.CutPrefix(line, r.dashBoundary)
	if !ok {
		return false
	}
	rest = bytes.TrimLeft(rest, " \t")
	if r.partsRead == 0 && len(rest) == 1 && rest[0] == '\n' {
		r.nl = r.nl[1:]
	}
	return bytes.Equal(rest, r.nl)
}

// isFinal reports whether line is the closing delimiter, "--boundary--".
func (r *partReader) isFinal(line []byte) bool {
	rest, ok := bytes.CutPrefix(line, r.dashBoundary)
	if !ok || !bytes.HasPrefix(rest, []byte("--")) {
		return false
	}
	rest = bytes.TrimLeft(rest[2:], " \t")
	return len(rest) == 0 || bytes.Equal(rest, r.nl)
}
