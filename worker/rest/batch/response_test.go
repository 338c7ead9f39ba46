package batch

import (
	"errors"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/tabletopdb/tabletop/worker/rest/exchange"
)

const (
	testBatch     = "batchresponse_71012969-93e4-48d4-89d8-a1374a76f411"
	testChangeset = "changesetresponse_8a61a321-a3ca-4f4f-9973-602ccebd5c2d"
	testEntity    = "http://127.0.0.1:10002/devstoreaccount1/t(PartitionKey='p',RowKey='1')"
	testETag      = `W/"datetime'2021-09-08T18%3A58%3A49.9965167Z'"`
	testError     = `{"odata.error":{"code":"EntityAlreadyExists","message":{"lang":"en-US",` +
		`"value":"2:The specified entity already exists.\nRequestId:r1\nTime:2021-08-02T18:01:40.3296350Z"}}}`
)

// common returns the headers every sub-response carries, plus outer-response headers
// that WriteResponse must leave out.
func common(dsv string) exchange.Header {
	return exchange.Header{
		"Cache-Control": {"no-cache"}, "X-Content-Type-Options": {"nosniff"},
		"Dataserviceversion": {dsv}, "Date": {"Mon, 02 Aug 2021 18:01:39 GMT"},
		"X-Ms-Request-Id": {"r1"}, "X-Ms-Version": {"2019-02-02"}, "Content-Length": {"0"},
	}
}

func with(h exchange.Header, kv ...string) exchange.Header {
	for i := 0; i < len(kv); i += 2 {
		h[kv[i]] = []string{kv[i+1]}
	}
	return h
}

// successResponses are an insert, a merge and a delete, as the REST layer would record them.
func successResponses() []Response {
	return []Response{
		{Status: 204, Header: with(common("3.0;"), "Etag", testETag, "Location", testEntity,
			"Dataserviceid", testEntity, "Preference-Applied", "return-no-content")},
		{Status: 204, Header: with(common("1.0;"), "ETag", testETag)},
		{Status: 204, Header: common("1.0;")},
	}
}

// The byte layout of the service's responses in the aztables recordings TestBatchMixed
// (success) and TestBatchError (failure).
const (
	wantHead = "--" + testBatch + "\r\n" +
		"Content-Type: multipart/mixed; boundary=" + testChangeset + "\r\n\r\n"
	wantPart = "--" + testChangeset + "\r\n" +
		"Content-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n"
	wantCommon = "X-Content-Type-Options: nosniff\r\nCache-Control: no-cache\r\n"
	wantTail   = "--" + testChangeset + "--\r\n--" + testBatch + "--\r\n"
	wantOK     = wantHead +
		wantPart + "HTTP/1.1 204 No Content\r\n" + wantCommon +
		"Preference-Applied: return-no-content\r\nDataServiceVersion: 3.0;\r\n" +
		"Location: " + testEntity + "\r\nDataServiceId: " + testEntity + "\r\n" +
		"ETag: " + testETag + "\r\n\r\n\r\n" +
		wantPart + "HTTP/1.1 204 No Content\r\n" + wantCommon +
		"DataServiceVersion: 1.0;\r\nETag: " + testETag + "\r\n\r\n\r\n" +
		wantPart + "HTTP/1.1 204 No Content\r\n" + wantCommon +
		"DataServiceVersion: 1.0;\r\n\r\n\r\n" +
		wantTail
	wantFailure = wantHead +
		wantPart + "HTTP/1.1 409 Conflict\r\n" + wantCommon +
		"Preference-Applied: return-no-content\r\nDataServiceVersion: 3.0;\r\n" +
		"Content-Type: application/json;odata=minimalmetadata;streaming=true;charset=utf-8\r\n" +
		"\r\n" + testError + "\r\n" +
		wantTail
)

func failureResponses() []Response {
	rs := successResponses()
	return append(rs[:2], Response{
		Status: http.StatusConflict,
		Header: with(common("3.0;"), "Preference-Applied", "return-no-content", "X-Ms-Error-Code", "EntityAlreadyExists",
			"content-type", "application/json;odata=minimalmetadata;streaming=true;charset=utf-8"),
		Body: []byte(testError),
	}, Response{Status: http.StatusNotFound, Header: common("1.0;")})
}

func TestWriteResponse(t *testing.T) {
	for _, tc := range []struct {
		name string
		rs   []Response
		want string
	}{
		{"OK", successResponses(), wantOK},
		{"OKFailure", failureResponses(), wantFailure},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			if err := WriteResponse(&b, testBatch, testChangeset, tc.rs); err != nil {
				t.Fatal(err)
			}
			if b.String() != tc.want {
				t.Fatalf("got\n%q\nwant\n%q", b.String(), tc.want)
			}
		})
	}
	t.Run("ErrEmpty", func(t *testing.T) {
		if err := WriteResponse(&strings.Builder{}, testBatch, testChangeset, nil); !errors.Is(err, ErrEmpty) {
			t.Fatalf("got %v, want ErrEmpty", err)
		}
	})
	t.Run("ErrStatus", func(t *testing.T) {
		for _, status := range []int{0, 99, 1000} {
			err := WriteResponse(&strings.Builder{}, testBatch, testChangeset, []Response{{Status: status}})
			if !errors.Is(err, ErrStatus) {
				t.Fatalf("status %d: got %v, want ErrStatus", status, err)
			}
		}
	})
	t.Run("ErrWrite", func(t *testing.T) {
		err := WriteResponse(failingWriter{}, testBatch, testChangeset, successResponses())
		if !errors.Is(err, errBroken) {
			t.Fatalf("got %v, want the writer's error", err)
		}
	})
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errBroken }

func TestWriteResponse_headers(t *testing.T) {
	h := exchange.Header{"B-Custom": {"x"}, "a-custom": {"1", "2"}, "Bad Name": {"v"},
		"Etag": {"W/\"1\"\r\nInjected: yes"}}
	var b strings.Builder
	if err := WriteResponse(&b, "b", "c", []Response{{Status: 599, Header: h}}); err != nil {
		t.Fatal(err)
	}
	want := "HTTP/1.1 599 \r\nETag: W/\"1\"  Injected: yes\r\nA-Custom: 1\r\nA-Custom: 2\r\nB-Custom: x\r\n\r\n\r\n"
	if !strings.Contains(b.String(), want) {
		t.Fatalf("got %q, want it to contain %q", b.String(), want)
	}
}

// TestWriteResponse_jsParser applies the JS client's parseTransactionResponse rules:
// split on "--changesetresponse_", drop the first and last pieces, and match each
// sub-response's status, ETag and RowKey.
func TestWriteResponse_jsParser(t *testing.T) {
	var b strings.Builder
	if err := WriteResponse(&b, testBatch, testChangeset, successResponses()); err != nil {
		t.Fatal(err)
	}
	pieces := strings.Split(b.String(), "--changesetresponse_")
	subs := pieces[1 : len(pieces)-1]
	status, etag := regexp.MustCompile(`HTTP/1.1 ([0-9]*)`), regexp.MustCompile(`ETag: ([^\r\n]*)`)
	rowKey, body := regexp.MustCompile(`RowKey='([^\r\n]*)'`), regexp.MustCompile(`\{([^\r\n]*)\}`)
	wantETags := []string{testETag, testETag, ""}
	if len(subs) != 3 {
		t.Fatalf("got %d sub-responses, want 3", len(subs))
	}
	for i, sub := range subs {
		m := etag.FindStringSubmatch(sub)
		gotETag := ""
		if m != nil {
			gotETag = m[1]
		}
		if status.FindStringSubmatch(sub)[1] != "204" || gotETag != wantETags[i] || body.MatchString(sub) {
			t.Errorf("sub-response %d %q", i, sub)
		}
	}
	if m := rowKey.FindStringSubmatch(subs[0]); m == nil || m[1] != "1" {
		t.Errorf("RowKey of the insert: %v", m)
	}
}
