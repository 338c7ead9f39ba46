package http1

import (
	"errors"
	"net"
	"time"
)

// longAgo is a read deadline already past: it ends a read in progress at once.
var longAgo = time.Unix(1, 0)

// goneWatch is the watch of a client's connection while a handler holds its answer (see
// conn.gone): the channel closed when the client goes, and the end of the watching read.
type goneWatch struct {
	gone chan struct{}
	done chan struct{}
}

// gone, which a request offers its handler as exchange.Request.Gone, watches the
// connection until the answer is sent and returns a channel closed if the client closes
// or resets it first: a handler that holds its answer (a change feed's wait) stops then.
// The watch reads at most the start of a request the client pipelined, which stays in
// the buffer for the next request. It needs the connection to itself: a request with a
// body, or with more bytes already buffered, is not watched (the channel never closes).
func (c *conn) gone() <-chan struct{} {
	if c.watch != nil {
		return c.watch.gone
	}
	if c.req == nil || c.req.body.remaining != 0 || c.req.body.chunked || c.br.Buffered() > 0 {
		return nil
	}
	w := &goneWatch{gone: make(chan struct{}), done: make(chan struct{})}
	c.watch = w
	c.rwc.SetReadDeadline(time.Time{}) // the header timeout ended with the head
	go func() {
		defer close(w.done)
		if _, err := c.br.Peek(1); err != nil && !isTimeout(err) {
			close(w.gone)
		}
	}()
	return w.gone
}

// endWatch ends the watch gone started, if any, before the connection is read again.
func (c *conn) endWatch() {
	w := c.watch
	if w == nil {
		return
	}
	c.watch = nil
	c.rwc.SetReadDeadline(longAgo)
	<-w.done
}

// isTimeout reports whether err is a read deadline passing.
func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}
