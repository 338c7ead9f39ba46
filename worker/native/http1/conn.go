package http1

import (
	"bufio"
	"io"
	"net"
	"runtime"
	"sync"
	"time"
)

// maxDrain is how much of a body the handler left unread is read and dropped to keep the
// connection for the next request, as net/http's server does; beyond it, the connection
// is closed.
const maxDrain = 256 << 10

// bufferSize is the size of a connection's read and write buffers.
const bufferSize = 4 << 10

var (
	readers = sync.Pool{New: func() any { return bufio.NewReaderSize(nil, bufferSize) }}
	writers = sync.Pool{New: func() any { return bufio.NewWriterSize(nil, bufferSize) }}
)

// conn is one client connection: its buffers, and what one request's reading and answer
// reuse from the one before.
type conn struct {
	s       *Server
	rwc     net.Conn
	remote  string
	br      *bufio.Reader
	bw      *bufio.Writer
	first   bool   // no request has been read yet
	head    []byte // the request head being read, reused
	res     response
	date    dateCache
	scratch [24]byte // for formatting numbers
	out     boundedWriter
	req     *request               // the request being answered
	goneFn  func() <-chan struct{} // c.gone, made once: each request's Gone
	watch   *goneWatch             // the watch gone started for the request, if any
}

// boundedWriter writes to a connection, each write bounded by Server.WriteTimeout.
type boundedWriter struct {
	rwc     net.Conn
	timeout time.Duration
}

func (w *boundedWriter) Write(p []byte) (int, error) {
	if w.timeout > 0 {
		w.rwc.SetWriteDeadline(time.Now().Add(w.timeout))
	}
	return w.rwc.Write(p)
}

func newConn(s *Server, rwc net.Conn) *conn {
	c := &conn{s: s, rwc: rwc, remote: rwc.RemoteAddr().String(), first: true}
	c.out = boundedWriter{rwc: rwc, timeout: s.WriteTimeout}
	c.goneFn = c.gone
	c.br = readers.Get().(*bufio.Reader)
	c.br.Reset(rwc)
	c.bw = writers.Get().(*bufio.Writer)
	c.bw.Reset(&c.out)
	c.res.c = c
	return c
}

// serve reads and answers requests until the connection ends.
func (c *conn) serve() {
	defer c.close()
	defer func() {
		if v := recover(); v != nil {
			buf := make([]byte, 64<<10)
			buf = buf[:runtime.Stack(buf, false)]
			c.s.logf("http1: panic serving %s: %v\n%s", c.remote, v, buf)
		}
	}()
	for c.awaitRequest() {
		req, status, reason := c.readRequest()
		if status < 0 {
			return
		}
		if status != 0 {
			c.refuse(status, reason)
			return
		}
		if !c.answer(req) || !c.s.setIdle(c, true) {
			return
		}
	}
}

// awaitRequest waits for the first byte of the next request (bounded by the idle
// timeout, or the header timeout before a connection's first request), marks the
// connection busy and starts the header timeout. False when the connection is to close.
func (c *conn) awaitRequest() bool {
	if c.br.Buffered() == 0 {
		wait := c.s.idleTimeout()
		if c.first {
			wait = c.s.ReadHeaderTimeout
		}
		c.setReadDeadline(wait)
		if _, err := c.br.Peek(1); err != nil {
			return false
		}
	}
	c.first = false
	if !c.s.setIdle(c, false) {
		return false
	}
	c.setReadDeadline(c.s.ReadHeaderTimeout)
	return true
}

// answer runs the handler on req and finishes its answer; it reports whether the
// connection can take another request.
func (c *conn) answer(req *request) bool {
	w := &c.res
	w.reset(req)
	c.req, req.Gone = req, c.goneFn
	c.s.Handler.Serve(w, &req.Request)
	c.endWatch()
	c.req = nil
	w.finish()
	if err := c.bw.Flush(); err != nil {
		return false
	}
	if !w.closeAfter && req.drain() {
		return true
	}
	if !req.body.complete() {
		c.linger()
	}
	return false
}

// refuse answers a request that could not be read, through Server.Refuse, and leaves the
// connection to close.
func (c *conn) refuse(status int, reason string) {
	w := &c.res
	w.reset(&request{})
	w.closeAfter = true
	if c.s.Refuse != nil {
		c.s.Refuse(w, status, reason)
	} else {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.WriteHeader(status)
		io.WriteString(w, statusText(status)+": "+reason)
	}
	w.finish()
	if c.bw.Flush() == nil {
		c.linger()
	}
}

// lingerTime is how long a connection closing with a request unread reads and drops what
// the client still sends, as net/http's server waits (its rstAvoidanceDelay).
const lingerTime = 500 * time.Millisecond

// linger closes the sending half, after the answer, and reads what the client still
// sends, for lingerTime at most: closing a socket with unread data resets it, and a
// client still sending its body may then lose the answer before it reads it.
func (c *conn) linger() {
	if tc, ok := c.rwc.(interface{ CloseWrite() error }); ok {
		tc.CloseWrite()
		c.setReadDeadline(lingerTime)
		io.Copy(io.Discard, c.rwc)
	}
}

// setReadDeadline bounds the next reads to d from now; zero lifts the bound.
func (c *conn) setReadDeadline(d time.Duration) {
	var t time.Time
	if d > 0 {
		t = time.Now().Add(d)
	}
	c.rwc.SetReadDeadline(t)
}

// close closes the connection and returns its buffers.
func (c *conn) close() {
	c.s.forget(c)
	c.rwc.Close()
	c.br.Reset(nil)
	readers.Put(c.br)
	c.bw.Reset(nil)
	writers.Put(c.bw)
	c.res.release()
}
