package http1

import (
	"bufio"
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/tabletopdb/tabletop/worker/rest/exchange"
)

// maxBuffered is how much body an answer holds before it sends its headers: an answer
// whose body ends within it is sent with its Content-Length.
const maxBuffered = 64 << 10

// bodyBuffers keeps the buffers answers hold their bodies in, so that a connection
// waiting for its next request holds none.
var bodyBuffers = sync.Pool{New: func() any { b := make([]byte, 0, maxBuffered); return &b }}

var (
	// ErrBodyNotAllowed is returned by Write for an answer whose status has no body.
	ErrBodyNotAllowed = errors.New("http1: request method or response status code does not allow body")
	// ErrContentLength is returned by Write for more body than the handler's Content-Length.
	ErrContentLength = errors.New("http1: wrote more than the declared Content-Length")
)

// response is the exchange.ResponseWriter of one request; a connection reuses it, and its
// header map, from one request to the next.
type response struct {
	c           *conn
	req         *request
	header      exchange.Header
	status      int
	wroteHeader bool // the status is set
	sentHeader  bool // the status line and headers are in the connection's buffer
	chunked     bool
	closeAfter  bool
	declared    int64 // the handler's Content-Length, -1 when it set none
	written     int64
	held        *[]byte  // the body so far, until the headers are sent
	keys        []string // the header names, sorted for writing
}

// reset prepares w for the answer to req.
func (w *response) reset(req *request) {
	if w.header == nil {
		w.header = make(exchange.Header, 16)
	} else {
		clear(w.header)
	}
	w.req, w.status, w.wroteHeader, w.sentHeader, w.chunked = req, 0, false, false, false
	w.closeAfter = req.closeAfter || !req.keepAlive
	w.declared, w.written = -1, 0
}

// Header is the answer's headers, to change before WriteHeader or Write.
func (w *response) Header() exchange.Header { return w.header }

// WriteHeader sets the status; only the first call counts. Informational statuses
// (1xx) are not sent: the final status follows. The headers are sent with the body, or
// when the handler returns.
func (w *response) WriteHeader(status int) {
	if status < 100 || status > 999 {
		panic("http1: invalid WriteHeader status " + strconv.Itoa(status))
	}
	if w.wroteHeader || status < 200 {
		return
	}
	w.wroteHeader, w.status = true, status
	if cl, ok := w.header["Content-Length"]; ok {
		if n, ok := parseLength(firstValue(cl)); ok {
			w.declared = n
		} else {
			delete(w.header, "Content-Length")
		}
	}
	if hasToken(w.header["Connection"], "close") {
		w.closeAfter = true
	}
}

// Write adds p to the body, sending the status 200 first if none was set.
func (w *response) Write(p []byte) (int, error) {
	if !w.wroteHeader {
		w.WriteHeader(exchange.StatusOK)
	}
	if !bodyAllowed(w.status) {
		return 0, ErrBodyNotAllowed
	}
	if w.declared >= 0 && w.written+int64(len(p)) > w.declared {
		return 0, ErrContentLength
	}
	w.written += int64(len(p))
	if !w.sentHeader {
		if w.held == nil {
			w.held = bodyBuffers.Get().(*[]byte)
		}
		if len(*w.held)+len(p) <= maxBuffered {
			*w.held = append(*w.held, p...)
			return len(p), nil
		}
		w.sendHeader(false, *w.held, p)
		if _, err := w.writeBody(*w.held); err != nil {
			return 0, err
		}
		w.release()
	}
	return w.writeBody(p)
}

// SetReadDeadline bounds the reading of the request body (exchange.ReadDeadliner).
func (w *response) SetReadDeadline(t time.Time) error { return w.c.rwc.SetReadDeadline(t) }

// finish completes the answer once the handler has returned: the status, headers and
// held body if they are not sent yet, else the last chunk.
func (w *response) finish() {
	if !w.wroteHeader {
		w.WriteHeader(exchange.StatusOK)
	}
	switch {
	case !w.sentHeader:
		var held []byte
		if w.held != nil {
			held = *w.held
		}
		w.sendHeader(true, held, nil)
		w.writeBody(held)
	case w.chunked:
		w.c.bw.WriteString("0\r\n\r\n")
	}
	if w.declared >= 0 && w.written < w.declared && bodyAllowed(w.status) && !w.head() {
		w.closeAfter = true // the client waits for bytes that will not come
	}
	w.release()
}

// sendHeader writes the status line and the headers: the handler's, sorted by name, then
// those the protocol adds. final says the whole body is in held; else held and next
// begin it, and it follows chunked (or, for HTTP/1.0, until the connection closes).
func (w *response) sendHeader(final bool, held, next []byte) {
	w.sentHeader = true
	if w.c.s.inShutdown.Load() {
		w.closeAfter = true
	}
	bw := w.c.bw
	bw.WriteString("HTTP/1.1 ")
	bw.Write(strconv.AppendInt(w.c.scratch[:0], int64(w.status), 10))
	bw.WriteByte(' ')
	bw.WriteString(statusText(w.status))
	bw.WriteString("\r\n")
	w.writeFields()
	if !bodyAllowed(w.status) {
		w.writeExtras(final)
		return
	}
	if _, ok := w.header["Content-Type"]; !ok && w.header["Content-Encoding"] == nil && len(held)+len(next) > 0 {
		writeField(bw, "Content-Type", http.DetectContentType(sniffed(held, next)))
	}
	switch {
	case w.declared >= 0:
	case final && (len(held) > 0 || !w.head()):
		bw.WriteString("Content-Length: ")
		bw.Write(strconv.AppendInt(w.c.scratch[:0], int64(len(held)), 10))
		bw.WriteString("\r\n")
	case final || w.head():
	case w.req.proto10:
		w.closeAfter = true // the body ends with the connection
	default:
		w.chunked = true
	}
	w.writeExtras(final)
}

// writeFields writes the handler's headers, sorted by name. Names that are not tokens and
// Transfer-Encoding, which the protocol sets, are left out; line breaks in values are
// written as spaces.
func (w *response) writeFields() {
	w.keys = w.keys[:0]
	for k := range w.header {
		if k != "Transfer-Encoding" && isToken(k) {
			w.keys = append(w.keys, k)
		}
	}
	slices.Sort(w.keys)
	for _, k := range w.keys {
		for _, v := range w.header[k] {
			writeField(w.c.bw, k, v)
		}
	}
}

// writeExtras writes the headers the protocol adds after the handler's (Connection,
// Transfer-Encoding, Date) and the empty line that ends them.
func (w *response) writeExtras(final bool) {
	bw := w.c.bw
	_, connSet := w.header["Connection"]
	switch {
	case connSet:
	case w.closeAfter:
		bw.WriteString("Connection: close\r\n")
	case w.req.proto10:
		bw.WriteString("Connection: keep-alive\r\n")
	}
	if w.chunked {
		bw.WriteString("Transfer-Encoding: chunked\r\n")
	}
	if _, ok := w.header["Date"]; !ok {
		bw.WriteString("Date: ")
		bw.Write(w.c.date.now())
		bw.WriteString("\r\n")
	}
	bw.WriteString("\r\n")
}

// writeBody writes body bytes after the headers: as a chunk of a chunked answer, none for
// HEAD.
func (w *response) writeBody(p []byte) (int, error) {
	if w.head() || len(p) == 0 {
		return len(p), nil
	}
	bw := w.c.bw
	if w.chunked {
		bw.Write(strconv.AppendInt(w.c.scratch[:0], int64(len(p)), 16))
		bw.WriteString("\r\n")
	}
	n, err := bw.Write(p)
	if w.chunked && err == nil {
		_, err = bw.WriteString("\r\n")
	}
	if err != nil {
		w.closeAfter = true
	}
	return n, err
}

// release returns the held body's buffer to the pool.
func (w *response) release() {
	if w.held != nil {
		*w.held = (*w.held)[:0]
		bodyBuffers.Put(w.held)
		w.held = nil
	}
}

func (w *response) head() bool { return w.req.Method == exchange.MethodHead }

// writeField writes one header line; line breaks in v are written as spaces, as net/http
// writes them, so that a value cannot start another header.
func writeField(bw *bufio.Writer, name, v string) {
	bw.WriteString(name)
	bw.WriteString(": ")
	v = strings.Trim(v, " \t")
	if strings.ContainsAny(v, "\r\n") {
		v = strings.NewReplacer("\r", " ", "\n", " ").Replace(v)
	}
	bw.WriteString(v)
	bw.WriteString("\r\n")
}

// sniffed is the start of the body, as much as http.DetectContentType reads.
func sniffed(held, next []byte) []byte {
	const sniffLen = 512
	if len(held) >= sniffLen || len(next) == 0 {
		return held[:min(len(held), sniffLen)]
	}
	b := append([]byte(nil), held...)
	return append(b, next[:min(len(next), sniffLen-len(held))]...)
}

// bodyAllowed reports whether an answer of status may have a body (RFC 9110 section 6.4.1).
func bodyAllowed(status int) bool {
	return status >= 200 && status != exchange.StatusNoContent && status != exchange.StatusNotModified
}

// statusText is the reason phrase of status, or "status code N" for one without.
func statusText(status int) string {
	if t := exchange.StatusText(status); t != "" {
		return t
	}
	return "status code " + strconv.Itoa(status)
}

func firstValue(v []string) string {
	if len(v) == 0 {
		return ""
	}
	return v[0]
}

// dateCache keeps the Date header's value for the current second.
type dateCache struct {
	sec int64
	b   []byte
}

// now is the current time as a Date header's value.
func (d *dateCache) now() []byte {
	t := time.Now()
	if s := t.Unix(); s != d.sec || d.b == nil {
		d.sec, d.b = s, exchange.AppendTime(d.b[:0], t)
	}
	return d.b
}
