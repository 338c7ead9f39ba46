package http1

import (
	"context"
	"errors"
	"log"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tabletopdb/tabletop/worker/rest/exchange"
)

// DefaultMaxHeaderBytes is the default bound on a request's line and headers, as net/http's.
const DefaultMaxHeaderBytes = 1 << 20

// ErrServerClosed is what Serve returns after Shutdown.
var ErrServerClosed = errors.New("http1: server closed")

// Server serves Handler over HTTP/1.1. Its fields are set before Serve and not changed
// after.
type Server struct {
	// Handler answers every request that could be read.
	Handler exchange.Handler
	// Refuse answers a request that could not be read, with the status net/http would
	// answer (400, 417, 431, 501 or 505) and why; the connection is closed after it. Nil
	// answers in plain text.
	Refuse func(w exchange.ResponseWriter, status int, reason string)
	// ReadHeaderTimeout bounds the time from a request's first byte to the end of its
	// headers, and how long a new connection may wait before its first request; zero
	// means no bound.
	ReadHeaderTimeout time.Duration
	// IdleTimeout bounds how long a kept connection waits for its next request; zero
	// means ReadHeaderTimeout.
	IdleTimeout time.Duration
	// WriteTimeout bounds each write of an answer to the connection: a client that takes
	// none of the bytes written for this long is disconnected, and the handler's Write
	// fails. A long answer read steadily is not cut short. Zero means no bound.
	WriteTimeout time.Duration
	// MaxHeaderBytes bounds a request's line and headers; zero means DefaultMaxHeaderBytes.
	MaxHeaderBytes int
	// ErrorLog receives the panics of Handler and the errors of Accept; nil means the log
	// package's standard logger.
	ErrorLog *log.Logger

	inShutdown atomic.Bool // read by answers, to close their connections
	mu         sync.Mutex
	closed     bool
	listeners  map[net.Listener]struct{}
	conns      map[*conn]bool // true while the connection waits for a request
}

// Serve accepts connections on ln and serves each on its own goroutine, until ln fails or
// Shutdown is called; then it closes ln and returns (ErrServerClosed after Shutdown).
func (s *Server) Serve(ln net.Listener) error {
	if !s.track(ln, true) {
		return ErrServerClosed
	}
	defer s.track(ln, false)
	var delay time.Duration
	for {
		rw, err := ln.Accept()
		if err != nil {
			if s.shuttingDown() {
				return ErrServerClosed
			}
			if te, ok := err.(interface{ Temporary() bool }); !ok || !te.Temporary() {
				return err
			}
			delay = min(max(2*delay, 5*time.Millisecond), time.Second)
			s.logf("http1: accept: %v; retrying in %v", err, delay)
			time.Sleep(delay)
			continue
		}
		delay = 0
		c := newConn(s, rw)
		if !s.setIdle(c, true) {
			rw.Close()
			continue
		}
		go c.serve()
	}
}

// Shutdown stops the server: it closes the listeners and the connections waiting for a
// request, and waits until every answer in flight is written and its connection closed,
// or ctx ends (then it returns ctx's error).
func (s *Server) Shutdown(ctx context.Context) error {
	s.inShutdown.Store(true)
	s.mu.Lock()
	s.closed = true
	var err error
	for ln := range s.listeners {
		err = errors.Join(err, ln.Close())
	}
	s.mu.Unlock()
	poll := time.Millisecond
	for {
		if s.closeIdle() {
			return err
		}
		t := time.NewTimer(poll)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
		poll = min(2*poll, 100*time.Millisecond)
	}
}

// track adds or removes a listener; false when adding to a server shut down.
func (s *Server) track(ln net.Listener, add bool) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !add {
		delete(s.listeners, ln)
		ln.Close()
		return true
	}
	if s.closed {
		return false
	}
	if s.listeners == nil {
		s.listeners = make(map[net.Listener]struct{})
	}
	s.listeners[ln] = struct{}{}
	return true
}

// setIdle records whether c waits for a request (idle) or serves one; false once the
// server is shut down, when c must close instead of taking another request.
func (s *Server) setIdle(c *conn, idle bool) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return false
	}
	if s.conns == nil {
		s.conns = make(map[*conn]bool)
	}
	s.conns[c] = idle
	return true
}

// forget removes a closed connection.
func (s *Server) forget(c *conn) {
	s.mu.Lock()
	delete(s.conns, c)
	s.mu.Unlock()
}

// closeIdle closes the connections waiting for a request and reports whether none is
// left.
func (s *Server) closeIdle() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for c, idle := range s.conns {
		if idle {
			c.rwc.Close()
			delete(s.conns, c)
		}
	}
	return len(s.conns) == 0
}

func (s *Server) shuttingDown() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closed
}

func (s *Server) maxHeaderBytes() int {
	if s.MaxHeaderBytes > 0 {
		return s.MaxHeaderBytes
	}
	return DefaultMaxHeaderBytes
}

func (s *Server) idleTimeout() time.Duration {
	if s.IdleTimeout > 0 {
		return s.IdleTimeout
	}
	return s.ReadHeaderTimeout
}

func (s *Server) logf(format string, args ...any) {
	if s.ErrorLog != nil {
		s.ErrorLog.Printf(format, args...)
		return
	}
	log.Printf(format, args...)
}
