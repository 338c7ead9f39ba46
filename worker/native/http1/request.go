package http1

import (
	"bufio"
	"crypto/tls"
	"strings"

	"github.com/tabletopdb/tabletop/worker/rest/exchange"
	"github.com/tabletopdb/tabletop/worker/rest/uri"
)

// request is one request read from a connection, with its body's reader and what the
// connection does after it.
type request struct {
	exchange.Request
	body body
	// keepAlive is set when the client lets the connection persist after the answer.
	keepAlive bool
	// closeAfter is set when the connection cannot take another request after this one.
	closeAfter bool
	// proto10 is set for an HTTP/1.0 request, whose answer cannot be chunked.
	proto10 bool
}

// readRequest reads the next request's head and prepares its body. A status other than
// zero refuses the request, for reason; -1 means the connection ended or timed out, and
// is closed without an answer.
func (c *conn) readRequest() (*request, int, string) {
	if status, reason := c.readHead(); status != 0 {
		return nil, status, reason
	}
	head := string(c.head) // the line, names and values share this one string
	line, fields := cutLine(head)
	req := &request{}
	req.RemoteAddr = c.remote
	switch conn := c.rwc.(type) {
	case *tls.Conn: // a tls.Listener's
		req.Secure = true
	case interface{ Secure() bool }: // the native server's, which sniffs the protocol
		req.Secure = conn.Secure()
	}
	if status, reason := req.parseLine(line); status != 0 {
		return nil, status, reason
	}
	h, reason := parseFields(fields)
	if reason != "" {
		return nil, 400, reason
	}
	req.Header = h
	if status, reason := req.applyHeader(); status != 0 {
		return nil, status, reason
	}
	req.body.c = c
	req.Body = &req.body
	if req.body.remaining != 0 || req.body.chunked {
		// The header timeout ends with the head: a handler bounds its reading of a body.
		c.setReadDeadline(0)
	}
	return req, 0, ""
}

// readHead reads the request line and the header lines, up to the empty line, into
// c.head; empty lines before the request line are skipped. The line ends are kept.
func (c *conn) readHead() (int, string) {
	c.head = c.head[:0]
	limit, read := c.s.maxHeaderBytes(), 0
	partial := false // the last read ended inside a line
	for {
		line, err := c.br.ReadSlice('\n')
		if read += len(line); read > limit {
			return 431, "request headers too large"
		}
		if err != nil && err != bufio.ErrBufferFull {
			return -1, err.Error()
		}
		blank := !partial && (len(line) == 1 || len(line) == 2 && line[0] == '\r')
		partial = err == bufio.ErrBufferFull
		switch {
		case blank && len(c.head) == 0:
			continue
		case blank:
			return 0, ""
		}
		c.head = append(c.head, line...)
	}
}

// parseLine reads the request line: method, target and version.
func (req *request) parseLine(line string) (int, string) {
	method, rest, ok1 := strings.Cut(line, " ")
	target, proto, ok2 := strings.Cut(rest, " ")
	if !ok1 || !ok2 || method == "" || !isToken(method) {
		return 400, "malformed request line"
	}
	switch proto {
	case "HTTP/1.1":
	case "HTTP/1.0":
		req.proto10 = true
	default:
		if len(proto) == 8 && strings.HasPrefix(proto, "HTTP/") && isDigit(proto[5]) && proto[6] == '.' && isDigit(proto[7]) {
			return 505, "unsupported protocol version " + proto
		}
		return 400, "malformed HTTP version"
	}
	u, err := uri.ParseRequestURI(target)
	if err != nil {
		return 400, "malformed request target"
	}
	req.Method, req.RequestURI, req.URL = method, target, u
	return 0, ""
}

// parseFields reads header lines into a Header by canonical name. The values share one
// array (a name sent twice gets its own when its second value is added). A reason other
// than "" says why the lines are malformed.
func parseFields(lines string) (exchange.Header, string) {
	n := strings.Count(lines, "\n")
	h := make(exchange.Header, n)
	values := make([]string, 0, n)
	for lines != "" {
		var line string
		line, lines = cutLine(lines)
		if line == "" || line[0] == ' ' || line[0] == '\t' {
			return nil, "obsolete header line folding"
		}
		name, value, ok := strings.Cut(line, ":")
		if !ok || name == "" || !isToken(name) {
			return nil, "malformed header line"
		}
		value = strings.Trim(value, " \t")
		if !validValue(value) {
			return nil, "invalid value of header " + name
		}
		k := exchange.CanonicalKey(name)
		if old, ok := h[k]; ok {
			h[k] = append(old, value)
			continue
		}
		values = append(values, value)
		h[k] = values[len(values)-1 : len(values) : len(values)]
	}
	return h, ""
}

// applyHeader takes from the headers what the protocol itself reads: the host, whether
// the connection persists, the expectation and the body's framing, removing the headers
// net/http's server removes (Host, Expect, Transfer-Encoding).
func (req *request) applyHeader() (int, string) {
	h := req.Header
	hosts := h["Host"]
	switch {
	case len(hosts) > 1:
		return 400, "too many Host headers"
	case len(hosts) == 0 && !req.proto10:
		return 400, "missing required Host header"
	case len(hosts) == 1 && !validHost(hosts[0]):
		return 400, "malformed Host header"
	}
	delete(h, "Host")
	if req.Host = req.URL.Host; req.Host == "" && len(hosts) == 1 {
		req.Host = hosts[0]
	}
	conn := h["Connection"]
	if req.proto10 {
		req.keepAlive = hasToken(conn, "keep-alive")
	} else {
		req.keepAlive = !hasToken(conn, "close")
	}
	if expect, ok := h["Expect"]; ok {
		if len(expect) != 1 || !strings.EqualFold(expect[0], "100-continue") {
			return 417, "unsupported expectation"
		}
		req.body.expectContinue = !req.proto10
		delete(h, "Expect")
	}
	return req.applyFraming()
}

// applyFraming sets how the body is delimited: "Transfer-Encoding: chunked" (which takes
// precedence over a Content-Length, RFC 9112 section 6.3, the connection then closing
// after the answer), a Content-Length, or no body.
func (req *request) applyFraming() (int, string) {
	h := req.Header
	if te, ok := h["Transfer-Encoding"]; ok {
		if len(te) != 1 || !strings.EqualFold(te[0], "chunked") {
			return 501, "unsupported transfer encoding"
		}
		if req.proto10 {
			// RFC 9112 section 6.1: an HTTP/1.0 message with a Transfer-Encoding has
			// faulty framing.
			return 400, "Transfer-Encoding in an HTTP/1.0 request"
		}
		delete(h, "Transfer-Encoding")
		if _, ok := h["Content-Length"]; ok {
			delete(h, "Content-Length")
			req.closeAfter = true
		}
		req.body.chunked, req.ContentLength = true, -1
		return 0, ""
	}
	cl := h["Content-Length"]
	if len(cl) == 0 {
		return 0, ""
	}
	for _, v := range cl[1:] {
		if v != cl[0] {
			return 400, "multiple Content-Length headers"
		}
	}
	n, ok := parseLength(cl[0])
	if !ok {
		return 400, "bad Content-Length"
	}
	h["Content-Length"] = cl[:1]
	req.ContentLength, req.body.remaining = n, n
	return 0, ""
}

// cutLine splits s after its first line, the line without its end ("\n" or "\r\n").
func cutLine(s string) (line, rest string) {
	line, rest, _ = strings.Cut(s, "\n")
	return strings.TrimSuffix(line, "\r"), rest
}

// parseLength reads a Content-Length: decimal digits, at most 18 of them.
func parseLength(s string) (int64, bool) {
	if s == "" || len(s) > 18 {
		return 0, false
	}
	var n int64
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return 0, false
		}
		n = n*10 + int64(s[i]-'0')
	}
	return n, true
}

// hasToken reports whether a comma-separated header value lists token, in any case.
func hasToken(values []string, token string) bool {
	for _, v := range values {
		for v != "" {
			var t string
			t, v, _ = strings.Cut(v, ",")
			if strings.EqualFold(strings.Trim(t, " \t"), token) {
				return true
			}
		}
	}
	return false
}

// isToken reports whether s is an HTTP token (RFC 9110 tchar), such as a header name.
func isToken[T string | []byte](s T) bool {
	for i := 0; i < len(s); i++ {
		if !exchange.IsTokenByte(s[i]) {
			return false
		}
	}
	return true
}

// validValue reports whether a header value, or a line of chunk framing, holds no
// control byte but tab.
func validValue[T string | []byte](v T) bool {
	for i := 0; i < len(v); i++ {
		if c := v[i]; c < ' ' && c != '\t' || c == 0x7f {
			return false
		}
	}
	return true
}

// validHost reports whether a Host header holds only what a host and port may: letters,
// digits and -._~!$&'()*+,;=:[]% (RFC 3986's reg-name, IP literals and the port).
func validHost(h string) bool {
	for i := 0; i < len(h); i++ {
		c := h[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || isDigit(c) || strings.IndexByte("-._~!$&'()*+,;=:[]%", c) >= 0) {
			return false
		}
	}
	return true
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }
