package main

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// client sends signed requests to one table endpoint.
type client struct {
	http    *http.Client
	base    string // endpoint, no trailing slash
	account string
	key     []byte
}

func newClient(cfg config, base string, conns int) (*client, error) {
	key, err := base64.StdEncoding.DecodeString(cfg.key)
	if err != nil {
		return nil, fmt.Errorf("decode key: %w", err)
	}
	tr := &http.Transport{MaxIdleConnsPerHost: conns, MaxConnsPerHost: conns, DisableCompression: true}
	return &client{http: &http.Client{Transport: tr, Timeout: time.Minute}, base: strings.TrimSuffix(base, "/"), account: cfg.account, key: key}, nil
}

// do sends one request, signed with SharedKeyLite, and returns the status, the
// continuation headers and the body.
func (c *client) do(method, path, body string) (resp *response, err error) {
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, c.base+path, r)
	if err != nil {
		return nil, err
	}
	h := req.Header
	h.Set("x-ms-version", "2019-02-02")
	h.Set("DataServiceVersion", "3.0")
	h.Set("Accept", "application/json;odata=minimalmetadata")
	if body != "" {
		h.Set("Content-Type", "application/json")
		h.Set("Prefer", "return-no-content")
	}
	c.sign(req)
	res, err := c.http.Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	out, err := io.ReadAll(res.Body)
	if err != nil {
		return nil, err
	}
	return &response{status: res.StatusCode, body: out,
		nextPK: res.Header.Get("x-ms-continuation-NextPartitionKey"), nextRK: res.Header.Get("x-ms-continuation-NextRowKey")}, nil
}

type response struct {
	status         int
	body           []byte
	nextPK, nextRK string
}

// sign adds x-ms-date and a SharedKeyLite Authorization: the HMAC-SHA256 of the date and
// the canonicalized resource, "/" + account + the path as sent.
func (c *client) sign(req *http.Request) {
	date := time.Now().UTC().Format(http.TimeFormat)
	req.Header.Set("x-ms-date", date)
	m := hmac.New(sha256.New, c.key)
	m.Write([]byte(date + "\n/" + c.account + req.URL.EscapedPath()))
	req.Header.Set("Authorization", "SharedKeyLite "+c.account+":"+base64.StdEncoding.EncodeToString(m.Sum(nil)))
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
