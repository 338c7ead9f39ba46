package exchange

import (
	"errors"
	"io"
	"time"

	"github.com/tabletopdb/tabletop/worker/rest/uri"
)

// Request is one request as the server received it.
type Request struct {
	// Method is the request's method (GET, PUT, MERGE…).
	Method string
	// URL is the request target, parsed; Path is unescaped, RawQuery is as sent.
	URL *uri.URL
	// RequestURI is the request target as the client sent it, still percent-encoded:
	// a path with its query, or an absolute URL. Shared Key signs the path as sent.
	RequestURI string
	// Host is the host the request names (its Host header), with any port.
	Host string
	// Header holds the request's headers by canonical name.
	Header Header
	// Body is the request body; it is never nil, and reads io.EOF at once when there
	// is none.
	Body io.Reader
	// ContentLength is the length of Body, -1 when unknown (a chunked body).
	ContentLength int64
	// Secure is set when the request reached the service over TLS.
	Secure bool
	// RemoteAddr is the client's address, "ip:port" or a bare IP, "" if unknown.
	RemoteAddr string
	// Gone, when the host offers it, starts watching the client's connection and returns
	// a channel closed if the client goes (closes or resets it) before the answer is sent,
	// for a handler that holds its answer; a nil channel when the host cannot tell for
	// this request. Nil when the host cannot tell at all.
	Gone func() <-chan struct{}
}

// ResponseWriter takes one answer: its headers, then its status, then its body, as
// net/http's ResponseWriter does. A host may also implement ReadDeadliner.
type ResponseWriter interface {
	// Header is the answer's headers, to change before WriteHeader or Write.
	Header() Header
	// WriteHeader sends the status and the headers; only the first call counts.
	WriteHeader(status int)
	// Write sends body bytes, writing status 200 first if no status was written.
	Write(p []byte) (int, error)
}

// Handler answers requests.
type Handler interface {
	// Serve answers r through w.
	Serve(w ResponseWriter, r *Request)
}

// HandlerFunc is a function as a Handler.
type HandlerFunc func(w ResponseWriter, r *Request)

// Serve calls f(w, r).
func (f HandlerFunc) Serve(w ResponseWriter, r *Request) { f(w, r) }

// ReadDeadliner is a ResponseWriter whose host can bound the time left to read the
// request body: a read after the deadline fails with os.ErrDeadlineExceeded. The zero
// time lifts the deadline. Hosts that hand over the whole body at once (the edge) have
// no need of it.
type ReadDeadliner interface {
	SetReadDeadline(deadline time.Time) error
}

// ErrNotSupported means the host under a ResponseWriter does not offer what was asked.
var ErrNotSupported = errors.New("not supported by the host")

// SetReadDeadline sets the read deadline of the host under w, looking through writers
// that wrap another (Unwrap() ResponseWriter); ErrNotSupported when no host offers one.
func SetReadDeadline(w ResponseWriter, deadline time.Time) error {
	for {
		switch t := w.(type) {
		case ReadDeadliner:
			return t.SetReadDeadline(deadline)
		case interface{ Unwrap() ResponseWriter }:
			w = t.Unwrap()
		default:
			return ErrNotSupported
		}
	}
}
