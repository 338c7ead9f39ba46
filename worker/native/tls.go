//go:build !js

package native

import (
	"bufio"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
)

// HTTPS. With -cert and -key the server speaks TLS on its address. Each connection's
// first byte tells the two protocols apart (a TLS handshake record starts with 0x16, an
// HTTP request with a method's capital letter), so a client that speaks the other one
// fails at once with a reason instead of waiting for a timeout: an HTTP request reaching
// the HTTPS port is answered 400, saying so; a TLS handshake reaching the HTTP port is
// answered with a TLS alert-free close, which TLS clients report as a handshake failure.

// tlsHandshake is the first byte of a TLS connection: a handshake record.
const tlsHandshake = 0x16

// loadTLS returns the TLS configuration of the certificate and key files, nil when
// neither is given.
func loadTLS(certFile, keyFile string) (*tls.Config, error) {
	if certFile == "" && keyFile == "" {
		return nil, nil
	}
	if certFile == "" || keyFile == "" {
		return nil, errors.New("-cert and -key go together: give both for HTTPS, or neither")
	}
	cert, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		return nil, fmt.Errorf("load the TLS certificate: %w", err)
	}
	return &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12, NextProtos: []string{"http/1.1"}}, nil
}

// sniffListener accepts connections whose protocol is told by their first byte; tls is
// nil for a plain HTTP port.
type sniffListener struct {
	net.Listener
	tls *tls.Config
}

// Accept returns the next connection, sniffed on its first read.
func (l sniffListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &sniffConn{Conn: c, tls: l.tls}, nil
}

// sniffConn is a connection that reads its first byte before anything else: then it
// reads and writes through TLS, as plain HTTP, or refuses the connection (see the top of
// this file). Deadlines and the addresses are the raw connection's, as tls.Conn's are.
type sniffConn struct {
	net.Conn
	tls  *tls.Config
	once sync.Once
	mu   sync.Mutex
	in   net.Conn // the connection as sniffed; nil before, and when it was refused
}

// sniff reads the first byte and chooses what the connection is.
func (c *sniffConn) sniff() {
	br := bufio.NewReader(c.Conn)
	first, err := br.Peek(1)
	raw := &peekedConn{Conn: c.Conn, r: br}
	var in net.Conn
	switch {
	case err != nil:
		in = raw // the read's error surfaces on the first Read
	case first[0] == tlsHandshake && c.tls != nil:
		in = tls.Server(raw, c.tls)
	case first[0] == tlsHandshake:
		c.Conn.Close() // a TLS client on the HTTP port
	case c.tls != nil:
		io.WriteString(c.Conn, httpOnHTTPS)
		c.Conn.Close()
	default:
		in = raw
	}
	c.mu.Lock()
	c.in = in
	c.mu.Unlock()
}

// sniffed returns the connection as sniffed, sniffing it first if need be.
func (c *sniffConn) sniffed() net.Conn {
	c.once.Do(c.sniff)
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.in
}

// httpOnHTTPS is the answer to a plain HTTP request on the HTTPS port.
const httpOnHTTPS = "HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\nContent-Length: 77\r\n\r\n" +
	"This port speaks HTTPS: connect with https:// (the server has -cert, -key).\r\n"

// Read reads through the connection as sniffed.
func (c *sniffConn) Read(p []byte) (int, error) {
	in := c.sniffed()
	if in == nil {
		return 0, io.EOF
	}
	return in.Read(p)
}

// Write writes through the connection as sniffed (the server writes after it reads).
func (c *sniffConn) Write(p []byte) (int, error) {
	in := c.sniffed()
	if in == nil {
		return 0, net.ErrClosed
	}
	return in.Write(p)
}

// Close closes the connection, through TLS when it speaks it; closing one that is being
// sniffed ends the sniff's read.
func (c *sniffConn) Close() error {
	c.mu.Lock()
	in := c.in
	c.mu.Unlock()
	if in == nil {
		return c.Conn.Close()
	}
	return in.Close()
}

// CloseWrite shuts the writing side down, through TLS when the connection speaks it, as
// the HTTP layer does before it lingers to read what the client still sends.
func (c *sniffConn) CloseWrite() error {
	c.mu.Lock()
	in := c.in
	c.mu.Unlock()
	if w, ok := in.(interface{ CloseWrite() error }); ok {
		return w.CloseWrite()
	}
	if w, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return w.CloseWrite()
	}
	return nil
}

// Secure reports whether the connection speaks TLS: its requests came over https.
func (c *sniffConn) Secure() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, ok := c.in.(*tls.Conn)
	return ok
}

// peekedConn is a raw connection read through the buffer that sniffed it.
type peekedConn struct {
	net.Conn
	r *bufio.Reader
}

// Read reads the sniffed byte first.
func (c *peekedConn) Read(p []byte) (int, error) { return c.r.Read(p) }
