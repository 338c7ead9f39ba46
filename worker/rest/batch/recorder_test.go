package batch

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
)

func TestRecorder_Response(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		rec := NewRecorder()
		rec.Header().Set("ETag", `W/"1"`)
		rec.WriteHeader(http.StatusConflict)
		rec.WriteHeader(http.StatusOK) // ignored
		io.WriteString(rec, `{"odata.error":{}}`)
		r := rec.Response()
		if r.Status != http.StatusConflict || r.Header.Get("Etag") != `W/"1"` || string(r.Body) != `{"odata.error":{}}` {
			t.Fatalf("got %+v", r)
		}
		rec.Header().Set("ETag", "changed")
		if r.Header.Get("ETag") != `W/"1"` {
			t.Fatal("Response shares its header with the Recorder")
		}
	})
	t.Run("OKNothingWritten", func(t *testing.T) {
		if r := NewRecorder().Response(); r.Status != http.StatusOK || len(r.Body) != 0 {
			t.Fatalf("got %+v", r)
		}
	})
}

func TestSubRequest_HTTPRequest(t *testing.T) {
	body, ct := fixture(t, "js_sdk_request.txt")
	subs, err := ReadRequest(strings.NewReader(body), ct)
	if err != nil {
		t.Fatal(err)
	}
	type key struct{}
	ctx := context.WithValue(context.Background(), key{}, "v")
	r := subs[1].HTTPRequest(ctx)
	got, _ := io.ReadAll(r.Body)
	if r.Method != "PATCH" || r.Host != "127.0.0.1:10002" || r.ContentLength != int64(len(got)) ||
		string(got) != `{"PartitionKey":"p","RowKey":"2","Name":"b"}` || r.Context().Value(key{}) != "v" ||
		r.RequestURI != "/devstoreaccount1/mytable(PartitionKey='p',RowKey='2')" ||
		r.Header.Get("If-Match") != subs[1].Header.Get("If-Match") {
		t.Fatalf("got %s %s %q %+v", r.Method, r.URL, got, r)
	}
	r.Header.Set("If-Match", "changed")
	r.URL.Path = "/changed"
	if subs[1].Header.Get("If-Match") == "changed" || subs[1].URL.Path == "/changed" {
		t.Fatal("HTTPRequest shares its header or URL with the SubRequest")
	}
}
