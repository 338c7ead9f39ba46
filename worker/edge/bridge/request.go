package bridge

import (
	"bytes"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/textproto"
	"net/url"
	"strconv"
	"strings"
)

// ErrMalformedHead means a request head is not "METHOD URL" followed by header lines.
var ErrMalformedHead = errors.New("malformed request head")

// DecodeRequest builds the server-side request that head and body describe. The URL must be
// absolute; its host becomes the request's Host and an https scheme marks the request as
// received over TLS, as a native server behind TLS would.
func DecodeRequest(head string, body []byte) (*http.Request, error) {
	line, rest, _ := strings.Cut(head, "\n")
	method, rawURL, ok := strings.Cut(line, " ")
	if !ok || method == "" || strings.ContainsAny(method, " \r") {
		return nil, fmt.Errorf("decode request line %q: %w", line, ErrMalformedHead)
	}
	u, err := url.Parse(rawURL)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return nil, fmt.Errorf("decode request url %q: %w", rawURL, ErrMalformedHead)
	}
	h, err := parseHeader(rest)
	if err != nil {
		return nil, err
	}
	r := &http.Request{
		Method: method, URL: u, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: h, Host: u.Host, RequestURI: u.RequestURI(), RemoteAddr: h.Get("Cf-Connecting-Ip"),
		ContentLength: int64(len(body)), Body: http.NoBody,
	}
	if len(body) > 0 {
		r.Body = io.NopCloser(bytes.NewReader(body))
	}
	if u.Scheme == "https" {
		r.TLS = &tls.ConnectionState{HandshakeComplete: true}
	}
	return r, nil
}

// parseHeader reads "Name: value" lines; an empty last line is allowed.
func parseHeader(lines string) (http.Header, error) {
	h := http.Header{}
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
		h.Add(textproto.CanonicalMIMEHeaderKey(name), strings.TrimSpace(value))
	}
	return h, nil
}

// writeHeader writes h as "Name: value" lines. Values are written as they are: HTTP forbids
// line breaks in them, and the JavaScript side's Headers never holds one.
func writeHeader(b *strings.Builder, h http.Header) {
	for name, values := range h {
		for _, v := range values {
			b.WriteString(name + ": " + v + "\n")
		}
	}
}

// statusLine is the first line of a response head.
func statusLine(status int) string { return strconv.Itoa(status) + "\n" }
