//go:build !js

package main

import (
	"bytes"
	"fmt"
	"net"
	"net/http"
	"strconv"

	"github.com/tabletopdb/tabletop/core/azerr"
	"github.com/tabletopdb/tabletop/core/wire"
	"github.com/tabletopdb/tabletop/worker/rest"
)

// protoErrorHeaders follow the status line of the answers net/http writes itself, in
// plain text, to a request it cannot parse: bad framing or headers (400), an unknown
// Transfer-Encoding (501), headers over its limit (431).
const protoErrorHeaders = "\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n"

// protoListener accepts connections whose protocol-level error answers are rewritten
// with an Azure error body (see protoConn).
type protoListener struct{ net.Listener }

func (l protoListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return protoConn{c}, nil
}

// protoConn rewrites the plain-text answers net/http writes itself, before any handler
// runs, into the Azure error answer a client's SDK can read: a JSON odata.error with its
// x-ms-error-code. net/http writes each in one Write straight to the connection; answers
// of the handler never have these headers.
type protoConn struct{ net.Conn }

func (c protoConn) Write(b []byte) (int, error) {
	status, text, ok := parseProtoError(b)
	if !ok {
		return c.Conn.Write(b)
	}
	if _, err := c.Conn.Write(protoAnswer(status, text)); err != nil {
		return 0, err
	}
	return len(b), nil
}

// parseProtoError recognizes an answer net/http wrote itself: its status and text.
func parseProtoError(b []byte) (int, string, bool) {
	// The headers follow the status line: looking there, not through the whole write,
	// keeps the cost of this check off large answers.
	end := bytes.IndexByte(b, '\n') - 1
	if end < 12 || !bytes.HasPrefix(b, []byte("HTTP/1.1 ")) || !bytes.HasPrefix(b[end:], []byte(protoErrorHeaders)) {
		return 0, "", false
	}
	line, rest := b[:end], b[end+len(protoErrorHeaders):]
	status, err := strconv.Atoi(string(line[9:12]))
	if err != nil {
		return 0, "", false
	}
	return status, string(rest), true
}

// protoAnswer is the Azure error answer to a request net/http refused with status.
func protoAnswer(status int, text string) []byte {
	code := azerr.InvalidInput
	switch status {
	case 431:
		code = azerr.HeadersTooLarge
	case 501:
		code = azerr.UnsupportedHeader
	}
	body := []byte(`{"odata.error":{"code":`)
	body = wire.AppendString(body, code.Name)
	body = append(body, `,"message":{"lang":"en-US","value":`...)
	body = wire.AppendString(body, code.Message+"\n"+text)
	body = append(body, "}}}"...)
	head := fmt.Sprintf("HTTP/1.1 %d %s\r\nContent-Type: application/json;odata=minimalmetadata;streaming=true;charset=utf-8\r\n"+
		"x-ms-error-code: %s\r\nx-ms-version: %s\r\nContent-Length: %d\r\nConnection: close\r\n\r\n",
		code.Status, http.StatusText(code.Status), code.Name, rest.DefaultVersion, len(body))
	return append([]byte(head), body...)
}
