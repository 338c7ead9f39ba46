package rest

import (
	"errors"
	"io"
	"os"
	"sync/atomic"
	"time"

	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/worker/rest/exchange"
)

// DefaultBodyMemory is the default cap on the bytes of request bodies held in memory at
// once, across all requests of a Handler.
const DefaultBodyMemory = 64 << 20

// MaxBodyBytes is the largest request body a Handler with the default options reads: a
// single entity's (DefaultMaxEntityBytes) or a batch's (model.MaxBatchBytes), whichever is
// larger. A host that must hold a whole body before the handler sees it (the edge's entry
// Worker, which routes by it) refuses a larger one itself, with the handler's answer.
const MaxBodyBytes = max(DefaultMaxEntityBytes, model.MaxBatchBytes)

// DefaultBodyTimeout is the default time a request has to send its whole body.
const DefaultBodyTimeout = 60 * time.Second

// minBodyBuffer is the first buffer a body is read into (see firstBuffer); it doubles as
// bytes arrive.
const minBodyBuffer = 4 << 10

// bodyBudget counts the bytes of request bodies held in memory, across requests, and
// refuses to hold more than max.
type bodyBudget struct {
	max  int64
	used atomic.Int64
}

// take reserves n bytes, or reports false when that would pass max.
func (b *bodyBudget) take(n int64) bool {
	if b.used.Add(n) > b.max {
		b.used.Add(-n)
		return false
	}
	return true
}

// give returns n bytes reserved with take.
func (b *bodyBudget) give(n int64) { b.used.Add(-n) }

// readBody reads the request body, at most limit bytes, into a buffer that grows with the
// bytes received (never with the Content-Length announced) and is reserved from the
// Handler's body budget until the call ends (release). A Content-Length above limit is
// refused before reading. The body must arrive before the Handler's body timeout, where
// the host supports read deadlines (exchange.ReadDeadliner). Errors: ErrBodyTooLarge,
// ErrServerBusy when the budget is spent, ErrBodyTimeout, and ErrBodyInvalid for a body
// whose framing is broken (such as a malformed chunk); after any of them the connection
// is closed.
func (c *call) readBody(limit int64) ([]byte, error) {
	if c.r.ContentLength > limit {
		return nil, ErrBodyTooLarge
	}
	exchange.SetReadDeadline(c.w, c.now.Add(c.h.bodyTimeout)) // hosts without read deadlines have their own
	var buf []byte
	for {
		if len(buf) == cap(buf) {
			if int64(len(buf)) > limit {
				return nil, c.bodyFailed(ErrBodyTooLarge)
			}
			grown := min(max(firstBuffer(c.r.ContentLength), 2*int64(cap(buf))), limit+1)
			if !c.h.bodies.take(grown - int64(cap(buf))) {
				return nil, c.bodyFailed(ErrServerBusy)
			}
			c.held += grown - int64(cap(buf))
			buf = append(make([]byte, 0, grown), buf...)
		}
		n, err := c.r.Body.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF && int64(len(buf)) <= limit {
			c.bodyRead = true
			exchange.SetReadDeadline(c.w, time.Time{}) // net/http reads on in the background: the deadline ends with the body
			return buf, nil
		}
		if err != nil && err != io.EOF {
			return nil, c.bodyFailed(bodyError(err))
		}
	}
}

// firstBuffer is the size of the first buffer a body is read into: minBodyBuffer, or one
// byte more than a smaller Content-Length announced, so that a small body takes no more
// memory than it needs and the read finding its end no larger buffer. A body longer than
// announced grows the buffer as any other.
func firstBuffer(contentLength int64) int64 {
	if contentLength >= 0 && contentLength < minBodyBuffer {
		return contentLength + 1
	}
	return minBodyBuffer
}

// bodyError is the error answered for err, met reading a body.
func bodyError(err error) error {
	if errors.Is(err, os.ErrDeadlineExceeded) {
		return ErrBodyTimeout
	}
	return ErrBodyInvalid
}

// bodyFailed marks the connection to be closed after the answer, so that what is left of
// a body nobody will read is never parsed as the next request, and returns err. It also
// ends reading at once: net/http would otherwise wait, after the answer, for up to
// 256 KiB of the rest of the body, which a stalled client never sends.
func (c *call) bodyFailed(err error) error {
	c.w.Header().Set("Connection", "close")
	exchange.SetReadDeadline(c.w, time.Unix(1, 0))
	return err
}

// release returns the call's body memory to the budget.
func (c *call) release() {
	c.h.bodies.give(c.held)
	c.held = 0
}
