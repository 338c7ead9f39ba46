//go:build !js

package rest_test

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/tabletopdb/tabletop/worker/rest/auth"
)

// signedRequest builds a request to the path below the account, signed with
// SharedKeyLite, accepting minimal metadata JSON.
func signedRequest(t testing.TB, e *env, method, path, body string) *http.Request {
	t.Helper()
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, e.url+path, r)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("x-ms-version", "2019-02-02")
	req.Header.Set("Accept", "application/json;odata=minimalmetadata")
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	sign(req)
	return req
}

// sign signs req with SharedKeyLite for the development account.
func sign(req *http.Request) {
	date := time.Now().UTC().Format(http.TimeFormat)
	req.Header.Set("x-ms-date", date)
	res := "/" + auth.DevAccountName + req.URL.EscapedPath()
	if comp, ok := req.URL.Query()["comp"]; ok {
		res += "?comp=" + url.QueryEscape(comp[0])
	}
	key, _ := base64.StdEncoding.DecodeString(auth.DevAccountKey)
	m := hmac.New(sha256.New, key)
	m.Write([]byte(date + "\n" + res))
	req.Header.Set("Authorization", "SharedKeyLite "+auth.DevAccountName+":"+base64.StdEncoding.EncodeToString(m.Sum(nil)))
}

// do sends req and returns the response, its body read and kept for body(resp).
func do(t testing.TB, req *http.Request) *http.Response {
	t.Helper()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	resp.Body = io.NopCloser(strings.NewReader(string(b)))
	bodies[resp] = string(b)
	return resp
}

// bodies keeps the bodies do read.
var bodies = map[*http.Response]string{}

// body returns the body of a response from do.
func body(resp *http.Response) string { return bodies[resp] }
