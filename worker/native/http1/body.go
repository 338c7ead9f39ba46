package http1

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// errChunk means a chunked body is malformed.
var errChunk = errors.New("http1: malformed chunked request body")

// maxChunkLine bounds a chunk's size line, extensions included, and maxOverhead the
// framing a chunked body may carry beyond 16 bytes a chunk and twice its data.
const (
	maxChunkLine = 4 << 10
	maxOverhead  = 16 << 10
)

// body reads a request's body from its connection: Content-Length bytes, or chunks up to
// the last one and its trailer (whose fields are dropped).
type body struct {
	c         *conn
	remaining int64 // bytes left of a Content-Length body, or of the current chunk
	chunked   bool
	done      bool  // the last chunk and its trailer are read
	overhead  int64 // chunk framing read beyond what maxOverhead allows for free
	err       error // the first error, returned by every later Read
	// expectContinue is set while "100 Continue" is owed: the client waits for it before
	// it sends the body.
	expectContinue bool
}

// Read reads the body.
func (b *body) Read(p []byte) (int, error) {
	if b.err != nil {
		return 0, b.err
	}
	if b.expectContinue {
		b.expectContinue = false
		if !b.c.res.sentHeader {
			b.c.bw.WriteString("HTTP/1.1 100 Continue\r\n\r\n")
			if err := b.c.bw.Flush(); err != nil {
				b.err = err
				return 0, err
			}
		}
	}
	if b.chunked && b.remaining == 0 {
		if err := b.nextChunk(); err != nil {
			b.err = err
			return 0, err
		}
	}
	if b.remaining == 0 {
		return 0, io.EOF
	}
	if int64(len(p)) > b.remaining {
		p = p[:b.remaining]
	}
	n, err := b.c.br.Read(p)
	b.remaining -= int64(n)
	switch {
	case err == io.EOF:
		err = io.ErrUnexpectedEOF
	case err == nil && b.remaining == 0 && b.chunked:
		err = b.endChunk()
	case err == nil && b.remaining == 0:
		err = io.EOF
	}
	if err != nil && err != io.EOF {
		b.err = err
	}
	return n, err
}

// nextChunk reads the next chunk's size line; after the last chunk, the trailer.
func (b *body) nextChunk() error {
	if b.done {
		return nil
	}
	line, err := b.readLine()
	if err != nil {
		return err
	}
	// chunk-size [ BWS ";" extensions ] (RFC 9112 section 7.1.1): space may precede only
	// the extensions, which are not read.
	size := line
	if i := bytes.IndexByte(line, ';'); i >= 0 {
		size = bytes.TrimRight(line[:i], " \t")
	}
	n, ok := parseHex(size)
	if !ok {
		return errChunk
	}
	// Framing beyond 16 bytes a chunk and twice its data is bounded, as net/http bounds
	// it: tiny chunks with long extensions would otherwise cost a reader without end.
	if b.overhead += int64(len(line)) + 4 - 16 - 2*n; b.overhead < 0 {
		b.overhead = 0
	} else if b.overhead > maxOverhead {
		return errChunk
	}
	if n == 0 {
		b.done = true
		return b.skipTrailer()
	}
	b.remaining = n
	return nil
}

// endChunk reads the line end after a chunk's data.
func (b *body) endChunk() error {
	line, err := b.readLine()
	if err == nil && len(line) != 0 {
		err = errChunk
	}
	return err
}

// skipTrailer reads the trailer's fields, up to the empty line, and drops them; each
// must be a well-formed "name: value" line, as a header's.
func (b *body) skipTrailer() error {
	for read := 0; ; {
		line, err := b.readLine()
		if err != nil {
			return err
		}
		if len(line) == 0 {
			return nil
		}
		if name, _, ok := bytes.Cut(line, []byte(":")); !ok || len(name) == 0 || !isToken(name) {
			return errChunk
		}
		if read += len(line); read > b.c.s.maxHeaderBytes() {
			return errChunk
		}
	}
}

// readLine reads one line of the chunked framing, without its CRLF; lines longer than
// maxChunkLine are malformed.
func (b *body) readLine() ([]byte, error) {
	line, err := b.c.br.ReadSlice('\n')
	switch {
	case err == bufio.ErrBufferFull || len(line) > maxChunkLine:
		return nil, errChunk
	case err == io.EOF:
		return nil, io.ErrUnexpectedEOF
	case err != nil:
		return nil, err
	case len(line) < 2 || line[len(line)-2] != '\r':
		return nil, errChunk
	}
	line = line[:len(line)-2]
	if !validValue(line) { // no CR, LF or other control byte inside the line
		return nil, errChunk
	}
	return line, nil
}

// complete reports whether the body has been read to its end.
func (b *body) complete() bool {
	return b.err == nil && b.remaining == 0 && (!b.chunked || b.done)
}

// drain reads and drops what the handler left of the body, up to maxDrain, so that the
// connection can take the next request; false when it cannot.
func (req *request) drain() bool {
	b := &req.body
	if b.complete() {
		return true
	}
	if b.err != nil || b.expectContinue {
		// A client still waiting for "100 Continue" may or may not send the body.
		return false
	}
	b.c.setReadDeadline(b.c.s.ReadHeaderTimeout)
	n, _ := io.CopyN(io.Discard, b, maxDrain+1)
	return n <= maxDrain && b.complete()
}

// parseHex reads a chunk size: hexadecimal digits, at most 15 of them.
func parseHex(s []byte) (int64, bool) {
	if len(s) == 0 || len(s) > 15 {
		return 0, false
	}
	var n int64
	for _, c := range s {
		var d byte
		switch {
		case '0' <= c && c <= '9':
			d = c - '0'
		case 'a' <= c && c <= 'f':
			d = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			d = c - 'A' + 10
		default:
			return 0, false
		}
		n = n<<4 | int64(d)
	}
	return n, true
}
