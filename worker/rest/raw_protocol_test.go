//go:build !js

package rest_test

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"
)

var (
	uuidRE      = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
	errorJSONRE = regexp.MustCompile(`^\{"odata\.error":\{"code":"([A-Za-z]+)","message":\{"lang":"en-US","value":"(.*)\\nRequestId:([0-9a-f-]{36})\\nTime:(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{7}Z)"\}\}\}$`)
)

func TestRaw_CommonHeaders(t *testing.T) {
	e := newEnv(t)
	t.Run("OK", func(t *testing.T) {
		req := signedRequest(t, e, http.MethodGet, "/Tables", "")
		req.Header.Set("x-ms-client-request-id", "my-id-1")
		resp := do(t, req)
		h := resp.Header
		if !uuidRE.MatchString(h.Get("x-ms-request-id")) {
			t.Errorf("x-ms-request-id = %q", h.Get("x-ms-request-id"))
		}
		if _, err := time.Parse(http.TimeFormat, h.Get("Date")); err != nil || !strings.HasSuffix(h.Get("Date"), " GMT") {
			t.Errorf("Date = %q: %v", h.Get("Date"), err)
		}
		want := map[string]string{"x-ms-version": "2019-02-02", "x-ms-client-request-id": "my-id-1",
			"Cache-Control": "no-cache", "X-Content-Type-Options": "nosniff"}
		for k, v := range want {
			if h.Get(k) != v {
				t.Errorf("%s = %q, want %q", k, h.Get(k), v)
			}
		}
	})
	t.Run("VersionEcho", func(t *testing.T) {
		req := signedRequest(t, e, http.MethodGet, "/Tables", "")
		req.Header.Set("x-ms-version", "2020-12-06")
		if v := do(t, req).Header.Get("x-ms-version"); v != "2020-12-06" {
			t.Errorf("x-ms-version = %q", v)
		}
	})
	t.Run("ErrorsToo", func(t *testing.T) {
		req, _ := http.NewRequest(http.MethodGet, e.url+"/Tables", nil)
		resp := do(t, req)
		if resp.StatusCode != http.StatusForbidden || resp.Header.Get("x-ms-version") != "2019-02-02" || resp.Header.Get("Date") == "" {
			t.Errorf("unauthenticated: %d %v", resp.StatusCode, resp.Header)
		}
	})
}

func TestRaw_ErrorBody(t *testing.T) {
	e := newEnv(t)
	resp := do(t, signedRequest(t, e, http.MethodGet, "/Nope()", ""))
	m := errorJSONRE.FindStringSubmatch(body(resp))
	if resp.StatusCode != http.StatusNotFound || m == nil {
		t.Fatalf("got %d %s", resp.StatusCode, body(resp))
	}
	if m[1] != "TableNotFound" || m[2] != "The table specified does not exist." || m[3] != resp.Header.Get("x-ms-request-id") ||
		resp.Header.Get("x-ms-error-code") != "TableNotFound" ||
		resp.Header.Get("Content-Type") != "application/json; odata=minimalmetadata; streaming=true; charset=utf-8" {
		t.Fatalf("got %v %s", resp.Header, body(resp))
	}
}

func TestRaw_Insert(t *testing.T) {
	e := newEnv(t)
	do(t, signedRequest(t, e, http.MethodPost, "/Tables", `{"TableName":"Ins"}`))
	insert := func(rk, prefer string) *http.Response {
		req := signedRequest(t, e, http.MethodPost, "/Ins", `{"PartitionKey":"p","RowKey":"`+rk+`","A":1}`)
		if prefer != "" {
			req.Header.Set("Prefer", prefer)
		}
		return do(t, req)
	}
	t.Run("NoPrefer", func(t *testing.T) {
		resp := insert("a b'c", "")
		loc := e.url + "/Ins(PartitionKey='p',RowKey='a%20b''c')"
		if resp.StatusCode != http.StatusCreated || resp.Header.Get("Preference-Applied") != "" ||
			resp.Header.Get("Location") != loc || resp.Header.Get("DataServiceId") != loc ||
			!strings.HasPrefix(resp.Header.Get("ETag"), `W/"datetime'`) ||
			!strings.Contains(body(resp), `"RowKey":"a b'c","Timestamp":`) {
			t.Fatalf("got %d %v %s", resp.StatusCode, resp.Header, body(resp))
		}
	})
	t.Run("ReturnNoContent", func(t *testing.T) {
		resp := insert("2", "return-no-content")
		if resp.StatusCode != http.StatusNoContent || resp.Header.Get("Preference-Applied") != "return-no-content" ||
			body(resp) != "" || resp.Header.Get("ETag") == "" || resp.Header.Get("Location") == "" {
			t.Fatalf("got %d %v %q", resp.StatusCode, resp.Header, body(resp))
		}
	})
	t.Run("ReturnContent", func(t *testing.T) {
		resp := insert("3", "return-content")
		if resp.StatusCode != http.StatusCreated || resp.Header.Get("Preference-Applied") != "return-content" {
			t.Fatalf("got %d %v", resp.StatusCode, resp.Header)
		}
	})
	t.Run("ErrDuplicateProperty", func(t *testing.T) {
		resp := do(t, signedRequest(t, e, http.MethodPost, "/Ins", `{"PartitionKey":"p","RowKey":"d","A":1,"A":2}`))
		wantRaw(t, resp, 400, "DuplicatePropertiesSpecified")
	})
	t.Run("ErrKeyMissing", func(t *testing.T) {
		resp := do(t, signedRequest(t, e, http.MethodPost, "/Ins", `{"PartitionKey":"p","A":1}`))
		wantRaw(t, resp, 400, "PropertiesNeedValue")
	})
	t.Run("ErrJSONInvalid", func(t *testing.T) {
		resp := do(t, signedRequest(t, e, http.MethodPost, "/Ins", `{"PartitionKey":"p",`))
		wantRaw(t, resp, 400, "InvalidInput")
	})
	t.Run("ErrValueInvalid", func(t *testing.T) {
		resp := do(t, signedRequest(t, e, http.MethodPost, "/Ins", `{"PartitionKey":"p","RowKey":"v","N@odata.type":"Edm.Int32","N":"x"}`))
		wantRaw(t, resp, 400, "InvalidInput")
	})
}

// wantRaw checks a JSON error answer.
func wantRaw(t *testing.T, resp *http.Response, status int, code string) {
	t.Helper()
	m := errorJSONRE.FindStringSubmatch(body(resp))
	if resp.StatusCode != status || resp.Header.Get("x-ms-error-code") != code || m == nil || m[1] != code {
		t.Fatalf("got %d %s %s, want %d %s", resp.StatusCode, resp.Header.Get("x-ms-error-code"), body(resp), status, code)
	}
}

func TestRaw_Merge(t *testing.T) {
	e := newEnv(t)
	do(t, signedRequest(t, e, http.MethodPost, "/Tables", `{"TableName":"Mrg"}`))
	do(t, signedRequest(t, e, http.MethodPost, "/Mrg", `{"PartitionKey":"p","RowKey":"r","A":1}`))
	path := "/Mrg(PartitionKey='p',RowKey='r')"
	for _, tc := range []struct {
		name, method, xmethod, prop string
	}{
		{"PATCH", "PATCH", "", "B"},
		{"MERGE", "MERGE", "", "C"},
		{"XHTTPMethod", "POST", "MERGE", "D"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := signedRequest(t, e, tc.method, path, `{"`+tc.prop+`":true}`)
			req.Header.Set("If-Match", "*")
			if tc.xmethod != "" {
				req.Header.Set("X-HTTP-Method", tc.xmethod)
			}
			resp := do(t, req)
			if resp.StatusCode != http.StatusNoContent || resp.Header.Get("ETag") == "" {
				t.Fatalf("got %d %s", resp.StatusCode, body(resp))
			}
		})
	}
	got := do(t, signedRequest(t, e, http.MethodGet, path, ""))
	for _, p := range []string{`"A":1`, `"B":true`, `"C":true`, `"D":true`} {
		if !strings.Contains(body(got), p) {
			t.Fatalf("merged entity %s lacks %s", body(got), p)
		}
	}
	t.Run("ErrXMethodNotPost", func(t *testing.T) {
		req := signedRequest(t, e, http.MethodPut, path, `{}`)
		req.Header.Set("X-HTTP-Method", "MERGE")
		wantRaw(t, do(t, req), 400, "XMethodNotUsingPost")
	})
	t.Run("ErrXMethodCount", func(t *testing.T) {
		req := signedRequest(t, e, http.MethodPost, path, `{}`)
		req.Header.Add("X-HTTP-Method", "MERGE")
		req.Header.Add("X-HTTP-Method", "DELETE")
		wantRaw(t, do(t, req), 400, "XMethodIncorrectCount")
	})
	t.Run("ErrXMethodValue", func(t *testing.T) {
		req := signedRequest(t, e, http.MethodPost, path, `{}`)
		req.Header.Set("X-HTTP-Method", "GET")
		wantRaw(t, do(t, req), 400, "XMethodIncorrectValue")
	})
	t.Run("ErrKeysDisagree", func(t *testing.T) {
		wantRaw(t, do(t, signedRequest(t, e, http.MethodPut, path, `{"PartitionKey":"other"}`)), 400, "InvalidInput")
	})
	t.Run("ErrIfMatchMissing", func(t *testing.T) {
		wantRaw(t, do(t, signedRequest(t, e, http.MethodDelete, path, "")), 400, "MissingRequiredHeader")
	})
	t.Run("ErrETagInvalid", func(t *testing.T) {
		req := signedRequest(t, e, http.MethodPut, path, `{}`)
		req.Header.Set("If-Match", `"not-weak"`)
		wantRaw(t, do(t, req), 400, "InvalidInput")
	})
	t.Run("ErrMethodNotAllowed", func(t *testing.T) {
		wantRaw(t, do(t, signedRequest(t, e, http.MethodPut, "/Mrg()", `{}`)), 405, "MethodNotAllowed")
	})
}

func TestRaw_Atom(t *testing.T) {
	e := newEnv(t)
	do(t, signedRequest(t, e, http.MethodPost, "/Tables", `{"TableName":"Atom"}`))
	for _, accept := range []string{"application/atom+xml", "application/xml", ""} {
		t.Run("Accept="+accept, func(t *testing.T) {
			req := signedRequest(t, e, http.MethodGet, "/Atom()", "")
			req.Header.Set("Accept", accept)
			wantRaw(t, do(t, req), 415, "AtomFormatNotSupported")
		})
	}
	t.Run("AtomBody", func(t *testing.T) {
		for _, ct := range []string{"application/atom+xml", " Application/ATOM+Xml ; type=entry"} {
			req := signedRequest(t, e, http.MethodPost, "/Atom", `<entry/>`)
			req.Header.Set("Content-Type", ct)
			req.Header.Set("Prefer", "return-no-content")
			wantRaw(t, do(t, req), 415, "AtomFormatNotSupported")
		}
	})
}

func TestRaw_XMLOperations(t *testing.T) {
	e := newEnv(t)
	t.Run("ErrJSONNotSupported", func(t *testing.T) {
		req := signedRequest(t, e, http.MethodPut, "/?restype=service&comp=properties", `{"Cors":[]}`)
		resp := do(t, req)
		if resp.StatusCode != 415 || resp.Header.Get("x-ms-error-code") != "JsonFormatNotSupported" ||
			!strings.HasPrefix(body(resp), `<?xml version="1.0" encoding="utf-8"?><Error><Code>JsonFormatNotSupported</Code><Message>JSON format is not supported.`) {
			t.Fatalf("got %d %v %s", resp.StatusCode, resp.Header, body(resp))
		}
	})
	t.Run("ErrAuthenticationFailedXML", func(t *testing.T) {
		req, _ := http.NewRequest(http.MethodGet, e.url+"/?restype=service&comp=properties", nil)
		resp := do(t, req)
		if resp.StatusCode != 403 || !strings.Contains(body(resp), "<Code>AuthenticationFailed</Code>") ||
			!strings.Contains(body(resp), "<AuthenticationErrorDetail>") || resp.Header.Get("Content-Type") != "application/xml" {
			t.Fatalf("got %d %v %s", resp.StatusCode, resp.Header, body(resp))
		}
	})
	t.Run("ErrPreflightHeaders", func(t *testing.T) {
		req, _ := http.NewRequest(http.MethodOptions, e.url+"/Tables", nil)
		req.Header.Set("Origin", "https://x.example")
		resp := do(t, req)
		if resp.StatusCode != 400 || resp.Header.Get("x-ms-error-code") != "MissingRequiredHeader" {
			t.Fatalf("got %d %v %s", resp.StatusCode, resp.Header, body(resp))
		}
	})
	t.Run("ErrPreflightNoRules", func(t *testing.T) {
		req, _ := http.NewRequest(http.MethodOptions, e.url+"/Tables", nil)
		req.Header.Set("Origin", "https://x.example")
		req.Header.Set("Access-Control-Request-Method", "GET")
		resp := do(t, req)
		if resp.StatusCode != 403 || resp.Header.Get("x-ms-error-code") != "CorsPreflightFailure" {
			t.Fatalf("got %d %v %s", resp.StatusCode, resp.Header, body(resp))
		}
	})
}

func TestRaw_HostStyle(t *testing.T) {
	e := newEnv(t)
	req, _ := http.NewRequest(http.MethodPost, "http://"+e.addr+"/Tables", strings.NewReader(`{"TableName":"Hosted"}`))
	req.Host = "devstoreaccount1.table.localhost"
	req.Header.Set("Accept", "application/json;odata=minimalmetadata")
	req.Header.Set("Content-Type", "application/json")
	sign(req)
	resp := do(t, req)
	want := `{"odata.metadata":"http://devstoreaccount1.table.localhost/$metadata#Tables/@Element","TableName":"Hosted"}`
	if resp.StatusCode != http.StatusCreated || body(resp) != want {
		t.Fatalf("got %d %s", resp.StatusCode, body(resp))
	}
	t.Run("ErrUnknownAccount", func(t *testing.T) {
		req, _ := http.NewRequest(http.MethodGet, "http://"+e.addr+"/someoneelse/Tables", nil)
		wantRaw(t, do(t, req), 400, "InvalidUri")
	})
}

func TestRaw_Continuation(t *testing.T) {
	e := newEnv(t)
	do(t, signedRequest(t, e, http.MethodPost, "/Tables", `{"TableName":"Cont"}`))
	for i := 0; i < 3; i++ {
		do(t, signedRequest(t, e, http.MethodPost, "/Cont", fmt.Sprintf(`{"PartitionKey":"p%d","RowKey":"r"}`, i)))
	}
	resp := do(t, signedRequest(t, e, http.MethodGet, "/Cont()?$top=2", ""))
	npk, nrk := resp.Header.Get("x-ms-continuation-NextPartitionKey"), resp.Header.Get("x-ms-continuation-NextRowKey")
	if npk == "" || nrk == "" || strings.Count(body(resp), `"PartitionKey"`) != 2 {
		t.Fatalf("first page: %v %s", resp.Header, body(resp))
	}
	resp = do(t, signedRequest(t, e, http.MethodGet, "/Cont()?$top=2&NextPartitionKey="+npk+"&NextRowKey="+nrk, ""))
	if resp.Header.Get("x-ms-continuation-NextPartitionKey") != "" || !strings.Contains(body(resp), `"PartitionKey":"p2"`) {
		t.Fatalf("second page: %v %s", resp.Header, body(resp))
	}
	t.Run("ErrTokenInvalid", func(t *testing.T) {
		wantRaw(t, do(t, signedRequest(t, e, http.MethodGet, "/Cont()?NextPartitionKey=garbage&NextRowKey=x", "")), 400, "InvalidInput")
	})
}

func TestRaw_TooLarge(t *testing.T) {
	e := newEnv(t)
	do(t, signedRequest(t, e, http.MethodPost, "/Tables", `{"TableName":"Big"}`))
	big := `{"PartitionKey":"p","RowKey":"r","S":"` + strings.Repeat("x", 5<<20) + `"}`
	t.Run("Entity", func(t *testing.T) {
		wantRaw(t, do(t, signedRequest(t, e, http.MethodPost, "/Big", big)), 413, "RequestBodyTooLarge")
	})
	t.Run("EntityChunked", func(t *testing.T) {
		req := signedRequest(t, e, http.MethodPost, "/Big", "")
		req.Body = io.NopCloser(strings.NewReader(big)) // no Content-Length: read until the cap
		req.ContentLength = -1
		wantRaw(t, do(t, req), 413, "RequestBodyTooLarge")
	})
	t.Run("Batch", func(t *testing.T) {
		req := signedRequest(t, e, http.MethodPost, "/$batch", strings.Repeat("x", 4<<20+1))
		req.Header.Set("Content-Type", "multipart/mixed; boundary=batch_x")
		wantRaw(t, do(t, req), 413, "RequestBodyTooLarge")
	})
	t.Run("ConnectionStaysUsable", func(t *testing.T) {
		// One connection: an oversized insert, then a normal request. The server either
		// drains the body and keeps the connection, or closes it after its answer; the
		// client must read a full 413 either way.
		conn, err := net.Dial("tcp", e.addr)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		br := bufio.NewReader(conn)
		req := signedRequest(t, e, http.MethodPost, "/Big", `{"PartitionKey":"p","RowKey":"r","S":"`+strings.Repeat("y", 4<<20)+`"}`)
		go req.Write(conn)
		resp, err := http.ReadResponse(br, req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		if resp.StatusCode != http.StatusRequestEntityTooLarge {
			t.Fatalf("status %d", resp.StatusCode)
		}
		small := signedRequest(t, e, http.MethodGet, "/Tables", "")
		ok := do(t, small)
		if ok.StatusCode != http.StatusOK {
			t.Fatalf("next request on a new connection: %d", ok.StatusCode)
		}
		if !resp.Close {
			// Kept open: it must serve the next request.
			small.Write(conn)
			resp2, err := http.ReadResponse(br, small)
			if err != nil || resp2.StatusCode != http.StatusOK {
				t.Fatalf("next request on the same connection: %v %v", resp2, err)
			}
		}
	})
	_ = bytes.MinRead
}
