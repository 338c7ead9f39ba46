package endpoint

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	json "github.com/goccy/go-json"

	"github.com/tabletopdb/tabletop/worker/rest/auth"
)

// version is the x-ms-version the client speaks.
const version = "2019-02-02"

// Client is a connection to one account of a table service.
type Client struct {
	account string
	base    string // scheme://host[/account], no trailing slash
	key     []byte // Shared Key, or nil when sas is set
	sas     string // SAS query string, without "?"
	http    *http.Client
}

func (c *Client) init() *Client {
	c.http = &http.Client{Timeout: requestTimeout, Transport: &http.Transport{
		Proxy:               http.ProxyFromEnvironment,
		MaxIdleConnsPerHost: 64,
		IdleConnTimeout:     30 * time.Second,
	}}
	return c
}

// Account returns the name of the client's account.
func (c *Client) Account() string { return c.account }

// String returns the endpoint's URL, without credentials.
func (c *Client) String() string { return c.base }

// Error is an error answer of the service: its HTTP status and Azure error code.
type Error struct {
	Status  int
	Code    string
	Message string
}

// Error implements error.
func (e *Error) Error() string { return fmt.Sprintf("%s (HTTP %d): %s", e.Code, e.Status, e.Message) }

// request is one call: method, path below the base URL (already escaped), query, body.
type request struct {
	method, path string
	query        url.Values
	header       http.Header
	body         []byte
}

// requestTimeout bounds one request, its answer included; attempts bounds the tries of one
// request that fails transiently.
const (
	requestTimeout = 2 * time.Minute
	attempts       = 5
)

// do sends r and returns the response, or an *Error for a status of 300 or more. Every
// request this client makes is idempotent (reads, creating a table that may exist,
// InsertOrReplace batches), so one that fails transiently (a network error, or 408, 429,
// 500, 502, 503, 504) is sent again, up to 5 times, waiting 100 ms, then twice as long
// each time.
func (c *Client) do(ctx context.Context, r request) (*http.Response, error) {
	delay := 100 * time.Millisecond
	for attempt := 1; ; attempt++ {
		resp, err := c.once(ctx, r)
		if err == nil || attempt == attempts || !transient(err) {
			return resp, err
		}
		select {
		case <-time.After(delay):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		delay *= 2
	}
}

// transient reports whether err may pass if the request is sent again.
func transient(err error) bool {
	var se *Error
	if errors.As(err, &se) {
		switch se.Status {
		case 408, 429, 500, 502, 503, 504:
			return true
		}
		return false
	}
	var ne net.Error
	return errors.As(err, &ne) || errors.Is(err, io.ErrUnexpectedEOF)
}

// once sends r once.
func (c *Client) once(ctx context.Context, r request) (*http.Response, error) {
	u := c.base + r.path
	q := r.query.Encode()
	if c.sas != "" {
		q = joinQuery(q, c.sas)
	}
	if q != "" {
		u += "?" + q
	}
	var body io.Reader
	if r.body != nil {
		body = bytes.NewReader(r.body)
	}
	req, err := http.NewRequestWithContext(ctx, r.method, u, body)
	if err != nil {
		return nil, err
	}
	for k, v := range r.header {
		req.Header[k] = v
	}
	req.Header.Set("x-ms-version", version)
	req.Header.Set("DataServiceVersion", "3.0")
	req.Header.Set("MaxDataServiceVersion", "3.0;NetFx")
	if req.Header.Get("Accept") == "" {
		req.Header.Set("Accept", "application/json;odata=minimalmetadata")
	}
	c.sign(req, r.query)
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode >= 300 {
		defer resp.Body.Close()
		return nil, readError(resp.StatusCode, resp.Header, resp.Body)
	}
	return resp, nil
}

func joinQuery(a, b string) string {
	if a == "" {
		return b
	}
	return a + "&" + b
}

// sign sets x-ms-date and, with an account key, a Shared Key Authorization header.
func (c *Client) sign(req *http.Request, query url.Values) {
	date := time.Now().UTC().Format(http.TimeFormat)
	req.Header.Set("x-ms-date", date)
	if c.key == nil {
		return
	}
	s := auth.Signed{Method: req.Method, ContentMD5: req.Header.Get("Content-MD5"), ContentType: req.Header.Get("Content-Type"),
		Date: date, Path: req.URL.EscapedPath(), Comp: query.Get("comp"), HasComp: query.Has("comp")}
	req.Header.Set("Authorization", string(auth.AppendAuthorization(nil, auth.SharedKey, c.account, c.key, s)))
}

// readError makes an *Error of an error answer: the code from x-ms-error-code or the
// JSON body, the message from the body.
func readError(status int, h http.Header, body io.Reader) *Error {
	data, _ := io.ReadAll(io.LimitReader(body, 1<<16))
	e := &Error{Status: status, Code: h.Get("x-ms-error-code")}
	var doc struct {
		Error struct {
			Code    string `json:"code"`
			Message struct {
				Value string `json:"value"`
			} `json:"message"`
		} `json:"odata.error"`
	}
	var xdoc struct {
		Code    string `xml:"Code"`
		Message string `xml:"Message"`
		Detail  string `xml:"AuthenticationErrorDetail"`
	}
	switch {
	case json.Unmarshal(data, &doc) == nil && doc.Error.Code != "":
		e.Code, e.Message = doc.Error.Code, doc.Error.Message.Value
	case xml.Unmarshal(data, &xdoc) == nil && xdoc.Code != "":
		e.Code, e.Message = xdoc.Code, xdoc.Message
	default:
		e.Message = strings.TrimSpace(string(data))
	}
	// Azure's messages end with RequestId and Time lines: the first says what failed.
	e.Message, _, _ = strings.Cut(e.Message, "\n")
	if xdoc.Detail != "" {
		e.Message += " (" + xdoc.Detail + ")"
	}
	if e.Code == "" {
		e.Code = http.StatusText(status)
	}
	return e
}
