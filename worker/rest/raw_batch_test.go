//go:build !js

package rest_test

import (
	"net/http"
	"regexp"
	"strings"
	"testing"
)

// jsBatch is a changeset as the JS client frames it: LF and CRLF mixed, no x-ms-version or
// Content-Length in the parts, an extra CRLF before each body, and absolute URLs.
func jsBatch(base string, ops ...string) string {
	var b strings.Builder
	b.WriteString("--batch_B\r\nContent-Type: multipart/mixed; boundary=changeset_C\r\n\r\n")
	for _, op := range ops {
		b.WriteString("--changeset_C\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n")
		b.WriteString(strings.ReplaceAll(op, "{base}", base))
		b.WriteString("\r\n")
	}
	b.WriteString("--changeset_C--\r\n--batch_B--\r\n")
	return b.String()
}

func insertOp(rk string) string {
	return "POST {base}/Btc HTTP/1.1\r\nAccept: application/json\r\nContent-Type: application/json\r\nPrefer: return-no-content\r\nDataServiceVersion: 3.0;\r\n\r\n\r\n" +
		`{"PartitionKey":"p","RowKey":"` + rk + `"}`
}

func postBatch(t *testing.T, e *env, body string) (resp *http.Response, batchB, changesetB string) {
	t.Helper()
	req := signedRequest(t, e, http.MethodPost, "/$batch", body)
	req.Header.Set("Content-Type", "multipart/mixed; boundary=batch_B")
	resp = do(t, req)
	m := regexp.MustCompile(`^multipart/mixed; boundary=(batchresponse_[0-9a-f-]{36})$`).FindStringSubmatch(resp.Header.Get("Content-Type"))
	if resp.StatusCode != http.StatusAccepted || m == nil {
		t.Fatalf("got %d %v %s", resp.StatusCode, resp.Header, body)
	}
	cs := regexp.MustCompile(`boundary=(changesetresponse_[0-9a-f-]{36})\r\n`).FindStringSubmatch(bodies[resp])
	if cs == nil {
		t.Fatalf("no changeset boundary in %q", bodies[resp])
	}
	return resp, m[1], cs[1]
}

func TestRaw_BatchFraming(t *testing.T) {
	e := newPinEnv(t)
	if resp := do(t, signedRequest(t, e, http.MethodPost, "/Tables", `{"TableName":"Btc"}`)); resp.StatusCode != http.StatusCreated {
		t.Fatal(body(resp))
	}
	do(t, signedRequest(t, e, http.MethodPost, "/Btc", `{"PartitionKey":"p","RowKey":"m"}`))
	t.Run("OK", func(t *testing.T) {
		merge := "MERGE {base}/Btc(PartitionKey='p',RowKey='m') HTTP/1.1\nContent-Type: application/json\nIf-Match: *\n\n{\"A\":1}"
		resp, bb, cb := postBatch(t, e, jsBatch(e.url, insertOp("1"), insertOp("2"), merge))
		etag := `W/"datetime'2021-08-31T15%3A40%3A49.6724409Z'"` // the store's third entity write
		insert := func(rk string) string {
			loc := e.url + "/Btc(PartitionKey='p',RowKey='" + rk + "')"
			return "--" + cb + "\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n" +
				"HTTP/1.1 204 No Content\r\nX-Content-Type-Options: nosniff\r\nCache-Control: no-cache\r\n" +
				"Preference-Applied: return-no-content\r\nDataServiceVersion: 3.0;\r\nLocation: " + loc + "\r\n" +
				"DataServiceId: " + loc + "\r\nETag: " + etag + "\r\n\r\n\r\n"
		}
		want := "--" + bb + "\r\nContent-Type: multipart/mixed; boundary=" + cb + "\r\n\r\n" +
			insert("1") + insert("2") +
			"--" + cb + "\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n" +
			"HTTP/1.1 204 No Content\r\nX-Content-Type-Options: nosniff\r\nCache-Control: no-cache\r\n" +
			"DataServiceVersion: 1.0;\r\nETag: " + etag + "\r\n\r\n\r\n" +
			"--" + cb + "--\r\n--" + bb + "--\r\n"
		if got := body(resp); got != want {
			t.Fatalf("got\n%q\nwant\n%q", got, want)
		}
	})
	t.Run("ErrEntityExists", func(t *testing.T) {
		resp, bb, cb := postBatch(t, e, jsBatch(e.url, insertOp("3"), insertOp("1")))
		re := regexp.MustCompile(`^--` + bb + "\r\nContent-Type: multipart/mixed; boundary=" + cb + "\r\n\r\n--" + cb +
			"\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n" +
			"HTTP/1.1 409 Conflict\r\nX-Content-Type-Options: nosniff\r\nCache-Control: no-cache\r\nDataServiceVersion: 3.0;\r\n" +
			"Content-Type: application/json; odata=minimalmetadata; streaming=true; charset=utf-8\r\n\r\n" +
			`(\{"odata\.error":\{"code":"EntityAlreadyExists","message":\{"lang":"en-US","value":"1:The specified entity already exists\.\\nRequestId:[0-9a-f-]{36}\\nTime:[0-9T:.-]{27}Z"\}\}\})` +
			"\r\n--" + cb + "--\r\n--" + bb + "--\r\n$")
		if !re.MatchString(body(resp)) {
			t.Fatalf("got\n%q", body(resp))
		}
		if got := do(t, signedRequest(t, e, http.MethodGet, "/Btc(PartitionKey='p',RowKey='3')", "")); got.StatusCode != http.StatusNotFound {
			t.Fatal("the failed batch applied operation 0")
		}
	})
	t.Run("ErrMalformed", func(t *testing.T) {
		req := signedRequest(t, e, http.MethodPost, "/$batch", "not multipart")
		req.Header.Set("Content-Type", "multipart/mixed; boundary=batch_B")
		wantRaw(t, do(t, req), 400, "InvalidInput")
	})
	t.Run("ErrOtherTable", func(t *testing.T) {
		other := strings.Replace(insertOp("x"), "/Btc ", "/Pins ", 1)
		resp, _, _ := postBatch(t, e, jsBatch(e.url, insertOp("4"), other))
		if !strings.Contains(body(resp), `"value":"1:One of the request inputs is not valid.`) {
			t.Fatalf("got %s", body(resp))
		}
	})
}
