package batch

import (
	"bufio"
	"bytes"
	"io"
	"strings"

	"github.com/tabletopdb/tabletop/worker/rest/exchange"
	"github.com/tabletopdb/tabletop/worker/rest/uri"
)

// SubRequest is one operation of a changeset, or the query of a query batch.
type SubRequest struct {
	// Method is the verb of the request line: POST, PUT, PATCH, MERGE or DELETE, or GET
	// for the one query of a query batch (see ReadRequest). An X-HTTP-Method header is
	// not applied here; it stays in Header.
	Method string
	// URL is the request target as sent: an absolute URL (with the account segment in
	// path style, and the Go client's ?$format=…) or an absolute path.
	URL *uri.URL
	// Header holds the request's headers under canonical names (If-Match, Prefer,
	// Dataserviceversion, ...).
	Header exchange.Header
	// Body is the rest of the part after the headers, less any leading CR and LF (the JS
	// client's extra CRLF). It is empty for a delete.
	Body []byte
}

// changesetMethod reports whether method is a verb allowed in a changeset.
func changesetMethod(method string) bool {
	switch method {
	case exchange.MethodPost, exchange.MethodPut, exchange.MethodPatch, "MERGE", exchange.MethodDelete:
		return true
	}
	return false
}

// parseSubRequest parses one HTTP request: request line, headers, blank line, body.
func parseSubRequest(r io.Reader) (SubRequest, error) {
	lr := lineReader{bufio.NewReader(r)}
	line, err := lr.readLine()
	if err != nil {
		return SubRequest{}, malformed("request line: %v", err)
	}
	method, target, err := parseRequestLine(string(line))
	if err != nil {
		return SubRequest{}, err
	}
	u, err := parseTarget(target)
	if err != nil {
		return SubRequest{}, err
	}
	h, err := lr.readMIMEHeader()
	if err != nil {
		return SubRequest{}, malformed("headers: %v", err)
	}
	body, err := io.ReadAll(lr.r)
	if err != nil {
		return SubRequest{}, malformed("body: %v", err)
	}
	body = bytes.TrimLeft(body, "\r\n")
	return SubRequest{Method: method, URL: u, Header: h, Body: body}, nil
}

// parseRequestLine splits "METHOD target HTTP/1.1" and checks the method.
func parseRequestLine(line string) (method, target string, err error) {
	method, rest, ok1 := strings.Cut(line, " ")
	target, proto, ok2 := strings.Cut(rest, " ")
	if !ok1 || !ok2 || !strings.HasPrefix(proto, "HTTP/") || strings.Contains(proto, " ") {
		return "", "", malformed("request line %q is not METHOD URL HTTP/1.1", line)
	}
	if !changesetMethod(method) && method != exchange.MethodGet {
		return "", "", &methodError{method}
	}
	return method, target, nil
}

// parseTarget parses a request target: an absolute URL with a host, or an absolute path.
func parseTarget(target string) (*uri.URL, error) {
	u, err := uri.ParseRequestURI(target)
	if err != nil {
		return nil, malformed("request URL %q: %v", target, err)
	}
	if u.Opaque != "" || (u.Scheme != "" && u.Host == "") {
		return nil, malformed("request URL %q is not an absolute URL or path", target)
	}
	return u, nil
}

// methodError is an ErrMethod that names the method.
type methodError struct{ method string }

func (e *methodError) Error() string {
	return ErrMethod.Error() + ": " + e.method
}

func (e *methodError) Unwrap() error { return ErrMethod }
