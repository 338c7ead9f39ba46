package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
)

// conn is one keep-alive HTTP/1.1 connection, used by one request at a time. It reads
// what the three targets answer: a Content-Length or chunked body, or one that ends with
// the connection; anything else is an error.
type conn struct {
	nc      net.Conn
	r       *bufio.Reader
	buf     []byte // the request being written
	closing bool   // the server closes the connection after this answer
}

// errIdleClosed means the server had closed the connection before the request reached
// it: nothing of the answer arrived.
var errIdleClosed = errors.New("connection closed before the answer")

// errFraming means an answer the client does not read: a malformed status line, header
// or chunk size.
var errFraming = errors.New("malformed answer")

func newConn(nc net.Conn) *conn {
	return &conn{nc: nc, r: bufio.NewReaderSize(nc, 64<<10)}
}

func (cn *conn) close() { cn.nc.Close() }

// roundTrip writes one request and reads its answer.
func (cn *conn) roundTrip(c *client, method, path, body string) (*response, error) {
	cn.buf = c.appendRequest(cn.buf[:0], method, path, body)
	if _, err := cn.nc.Write(cn.buf); err != nil {
		return nil, errors.Join(errIdleClosed, err)
	}
	line, err := cn.r.ReadSlice('\n')
	if len(line) == 0 && err != nil {
		return nil, errors.Join(errIdleClosed, err)
	}
	if err != nil {
		return nil, fmt.Errorf("read status: %w", err)
	}
	res := &response{}
	if len(line) < 12 || !bytes.HasPrefix(line, []byte("HTTP/1.")) {
		return nil, fmt.Errorf("status line %q: %w", line, errFraming)
	}
	if res.status, err = strconv.Atoi(string(line[9:12])); err != nil {
		return nil, fmt.Errorf("status line %q: %w", line, errFraming)
	}
	length, chunked, err := cn.readHeader(res)
	if err != nil {
		return nil, err
	}
	switch {
	case res.status == 204 || res.status == 304 || method == "HEAD":
	case chunked:
		res.body, err = cn.readChunked()
	case length >= 0:
		res.body = make([]byte, length)
		_, err = io.ReadFull(cn.r, res.body)
	default:
		cn.closing = true
		res.body, err = io.ReadAll(cn.r)
	}
	return res, err
}

// readHeader reads the answer's header fields up to the empty line: the body's length
// (-1 if none is given) or whether it is chunked, and the fields the load reads.
func (cn *conn) readHeader(res *response) (length int, chunked bool, err error) {
	length = -1
	for {
		line, err := cn.r.ReadSlice('\n')
		if err != nil {
			return 0, false, fmt.Errorf("read header: %w", err)
		}
		line = bytes.TrimRight(line, "\r\n")
		if len(line) == 0 {
			return length, chunked, nil
		}
		name, value, ok := bytes.Cut(line, []byte(":"))
		if !ok {
			return 0, false, fmt.Errorf("header %q: %w", line, errFraming)
		}
		value = bytes.TrimSpace(value)
		switch {
		case bytes.EqualFold(name, []byte("Content-Length")):
			if length, err = strconv.Atoi(string(value)); err != nil || length < 0 {
				return 0, false, fmt.Errorf("content-length %q: %w", value, errFraming)
			}
		case bytes.EqualFold(name, []byte("Transfer-Encoding")):
			chunked = bytes.EqualFold(value, []byte("chunked"))
			if !chunked {
				return 0, false, fmt.Errorf("transfer-encoding %q: %w", value, errFraming)
			}
		case bytes.EqualFold(name, []byte("Connection")):
			cn.closing = cn.closing || bytes.EqualFold(value, []byte("close"))
		case bytes.EqualFold(name, []byte("x-ms-continuation-NextPartitionKey")):
			res.nextPK = string(value)
		case bytes.EqualFold(name, []byte("x-ms-continuation-NextRowKey")):
			res.nextRK = string(value)
		}
	}
}

// readChunked reads a chunked body and the trailer after it.
func (cn *conn) readChunked() ([]byte, error) {
	var body []byte
	for {
		line, err := cn.r.ReadSlice('\n')
		if err != nil {
			return nil, fmt.Errorf("read chunk size: %w", err)
		}
		size, _, _ := bytes.Cut(bytes.TrimRight(line, "\r\n"), []byte(";"))
		n, err := strconv.ParseUint(string(bytes.TrimSpace(size)), 16, 31)
		if err != nil {
			return nil, fmt.Errorf("chunk size %q: %w", line, errFraming)
		}
		if n == 0 {
			_, _, err := cn.readHeader(&response{}) // the trailer
			return body, err
		}
		start := len(body)
		body = append(body, make([]byte, n+2)...)
		if _, err := io.ReadFull(cn.r, body[start:]); err != nil {
			return nil, fmt.Errorf("read chunk: %w", err)
		}
		if !bytes.HasSuffix(body, []byte("\r\n")) {
			return nil, fmt.Errorf("chunk end: %w", errFraming)
		}
		body = body[:len(body)-2]
	}
}
