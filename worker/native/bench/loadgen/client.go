package main

import (
	"encoding/base64"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/tabletopdb/tabletop/worker/rest/auth"
)

// client sends signed requests to one table endpoint over keep-alive HTTP/1.1
// connections of its own (conn.go): the calling goroutine writes each request and reads
// its answer itself, so the load generator spends little of the CPU it shares with the
// server it measures, and the same on every target.
type client struct {
	addr    string // host:port of the endpoint
	prefix  string // the endpoint's path (/devstoreaccount1), no trailing slash
	account string
	key     []byte
	conns   chan *conn // idle connections
}

func newClient(cfg config, base string, conns int) (*client, error) {
	key, err := base64.StdEncoding.DecodeString(cfg.key)
	if err != nil {
		return nil, fmt.Errorf("decode key: %w", err)
	}
	u, err := url.Parse(strings.TrimSuffix(base, "/"))
	if err != nil || u.Scheme != "http" || u.Host == "" {
		return nil, fmt.Errorf("endpoint %q: want http://host:port/path", base)
	}
	return &client{addr: u.Host, prefix: u.EscapedPath(), account: cfg.account, key: key,
		conns: make(chan *conn, conns)}, nil
}

// response is one answer: its status, the continuation headers and the body.
type response struct {
	status         int
	body           []byte
	nextPK, nextRK string
}

// do sends one request, signed with SharedKeyLite, and returns the answer. path is below
// the endpoint, percent-encoded, with its query. A request that finds its idle
// connection closed by the server is sent again once on a new one.
func (c *client) do(method, path, body string) (*response, error) {
	cn, reused, err := c.take()
	if err != nil {
		return nil, err
	}
	res, err := cn.roundTrip(c, method, path, body)
	if err != nil && reused && errors.Is(err, errIdleClosed) {
		cn.close()
		if cn, err = c.dial(); err != nil {
			return nil, err
		}
		res, err = cn.roundTrip(c, method, path, body)
	}
	if err != nil || cn.closing {
		cn.close()
	} else {
		c.give(cn)
	}
	return res, err
}

// take returns an idle connection, or a new one (reused false).
func (c *client) take() (cn *conn, reused bool, err error) {
	select {
	case cn := <-c.conns:
		return cn, true, nil
	default:
		cn, err := c.dial()
		return cn, false, err
	}
}

// give keeps cn for the next request, or closes it when enough are idle.
func (c *client) give(cn *conn) {
	select {
	case c.conns <- cn:
	default:
		cn.close()
	}
}

func (c *client) dial() (*conn, error) {
	nc, err := net.DialTimeout("tcp", c.addr, 10*time.Second)
	if err != nil {
		return nil, err
	}
	return newConn(nc), nil
}

// appendRequest appends the request's head and body, signed: x-ms-date and a
// SharedKeyLite Authorization.
func (c *client) appendRequest(b []byte, method, path, body string) []byte {
	b = append(b, method...)
	b = append(b, ' ')
	start := len(b)
	b = append(b, c.prefix...)
	b = append(b, path...)
	resource := b[start:]
	if i := strings.IndexByte(path, '?'); i >= 0 {
		resource = b[start : start+len(c.prefix)+i]
	}
	var tmp [32]byte
	date := time.Now().UTC().AppendFormat(tmp[:0], http.TimeFormat)
	signed := auth.Signed{Date: string(date), Path: string(resource)}
	b = append(b, " HTTP/1.1\r\nHost: "...)
	b = append(b, c.addr...)
	b = append(b, "\r\nX-Ms-Version: 2019-02-02\r\nDataServiceVersion: 3.0\r\nAccept: application/json;odata=minimalmetadata\r\nX-Ms-Date: "...)
	b = append(b, date...)
	b = append(b, "\r\nAuthorization: "...)
	b = auth.AppendAuthorization(b, auth.SharedKeyLite, c.account, c.key, signed)
	if body != "" {
		b = append(b, "\r\nContent-Type: application/json\r\nPrefer: return-no-content\r\nContent-Length: "...)
		b = fmt.Appendf(b, "%d", len(body))
	}
	b = append(b, "\r\n\r\n"...)
	return append(b, body...)
}

// query runs a query to its end, following continuations, and returns its entities' count.
func (c *client) query(table, filter string) (int, error) {
	q := url.Values{"$filter": {filter}}
	n := 0
	for {
		res, err := c.do(http.MethodGet, "/"+table+"()?"+strings.ReplaceAll(q.Encode(), "+", "%20"), "")
		if err != nil {
			return 0, err
		}
		if res.status != http.StatusOK {
			return 0, fmt.Errorf("query %q: status %d: %s", filter, res.status, res.body)
		}
		n += strings.Count(string(res.body), `"odata.etag"`)
		if res.nextPK == "" && res.nextRK == "" {
			return n, nil
		}
		q.Set("NextPartitionKey", res.nextPK)
		q.Set("NextRowKey", res.nextRK)
	}
}
