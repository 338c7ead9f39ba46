package bridge

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/tabletopdb/tabletop/worker/rest/exchange"
	"github.com/tabletopdb/tabletop/worker/rest/uri"
)

// ErrMalformedHead means a request head is not "METHOD URL" followed by header lines.
var ErrMalformedHead = errors.New("malformed request head")

// DecodeRequest builds the server-side request that head and body describe. The URL must be
// absolute; its host becomes the request's Host and an https scheme marks the request as
// received over TLS (Secure), as a native server behind TLS would.
func DecodeRequest(head string, body []byte) (*exchange.Request, error) {
	line, rest, _ := strings.Cut(head, "\n")
	method, rawURL, ok := strings.Cut(line, " ")
	if !ok || method == "" || strings.ContainsAny(method, " \r") {
		return nil, fmt.Errorf("decode request line %q: %w", line, ErrMalformedHead)
	}
	u, err := uri.Parse(rawURL)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return nil, fmt.Errorf("decode request url %q: %w", rawURL, ErrMalformedHead)
	}
	h, err := parseHeader(rest)
	if err != nil {
		return nil, err
	}
	return &exchange.Request{
		Method: method, URL: u, Header: h, Host: u.Host, RequestURI: u.RequestURI(),
		RemoteAddr: h.Get("Cf-Connecting-Ip"), ContentLength: int64(len(body)),
		Body: bytes.NewReader(body), Secure: u.Scheme == "https",
	}, nil
}

// parseHeader reads "Name: value" lines; an empty last line is allowed. The values share
// one array (a header named twice gets its own when its second value is added), and the
// names are canonicalized through names.
func parseHeader(lines string) (exchange.Header, error) {
	n := strings.Count(lines, "\n") + 1
	h := make(exchange.Header, n)
	values := make([]string, 0, n)
	for lines != "" {
		var line string
		line, lines, _ = strings.Cut(lines, "\n")
		if line == "" {
			continue
		}
		name, value, ok := strings.Cut(line, ":")
		if !ok || name == "" || strings.ContainsAny(name, " \t\r") {
			return nil, fmt.Errorf("decode header line %q: %w", line, ErrMalformedHead)
		}
		k, v := names.canonical(name), strings.TrimSpace(value)
		if old, ok := h[k]; ok {
			h[k] = append(old, v)
			continue
		}
		values = append(values, v)
		h[k] = values[len(values)-1 : len(values) : len(values)]
	}
	return h, nil
}

// appendHeader appends h as "Name: value" lines to dst. Values are written as they are:
// HTTP forbids line breaks in them, and the JavaScript side's Headers never holds one.
func appendHeader(dst []byte, h exchange.Header) []byte {
	for name, values := range h {
		for _, v := range values {
			dst = append(dst, name...)
			dst = append(dst, ": "...)
			dst = append(dst, v...)
			dst = append(dst, '\n')
		}
	}
	return dst
}
