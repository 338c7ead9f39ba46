package nethttp_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/tabletopdb/tabletop/worker/rest/exchange"
	"github.com/tabletopdb/tabletop/worker/rest/nethttp"
)

type handlerFunc func(w exchange.ResponseWriter, r *exchange.Request)

func (f handlerFunc) Serve(w exchange.ResponseWriter, r *exchange.Request) { f(w, r) }

func TestHandler(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		var got exchange.Request
		var body string
		var deadlineErr error
		srv := httptest.NewServer(nethttp.Handler(handlerFunc(func(w exchange.ResponseWriter, r *exchange.Request) {
			got = *r
			deadlineErr = exchange.SetReadDeadline(w, time.Now().Add(time.Minute))
			b, _ := io.ReadAll(r.Body)
			body = string(b)
			w.Header().Set("etag", `W/"x"`)
			w.WriteHeader(exchange.StatusCreated)
			w.Write([]byte("done"))
		})))
		defer srv.Close()
		req, _ := http.NewRequest("PUT", srv.URL+"/acct/t(PartitionKey='a%20b',RowKey='')?$format=json", strings.NewReader("payload"))
		req.Header.Set("x-ms-date", "Sat, 22 Nov 2026 10:00:00 GMT")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		answer, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != 201 || resp.Header.Get("ETag") != `W/"x"` || string(answer) != "done" {
			t.Errorf("answer %d %v %q", resp.StatusCode, resp.Header, answer)
		}
		if got.Method != "PUT" || got.URL.Path != "/acct/t(PartitionKey='a b',RowKey='')" || got.URL.RawQuery != "$format=json" ||
			got.RequestURI != "/acct/t(PartitionKey='a%20b',RowKey='')?$format=json" || got.Secure || got.ContentLength != 7 ||
			got.Header.Get("X-MS-DATE") != "Sat, 22 Nov 2026 10:00:00 GMT" || !strings.HasPrefix(got.RemoteAddr, "127.0.0.1:") || body != "payload" {
			t.Errorf("request %+v, body %q", got, body)
		}
		if deadlineErr != nil {
			t.Errorf("SetReadDeadline: %v", deadlineErr)
		}
	})
	t.Run("OKNoBody", func(t *testing.T) {
		r := nethttp.Request(&http.Request{Method: "GET", Header: http.Header{}})
		if b, err := io.ReadAll(r.Body); err != nil || len(b) != 0 {
			t.Errorf("body %q, %v", b, err)
		}
	})
}

// TestHandler_Gone: a handler holding its answer learns that its client went.
func TestHandler_Gone(t *testing.T) {
	ended := make(chan bool, 1)
	srv := httptest.NewServer(nethttp.Handler(handlerFunc(func(w exchange.ResponseWriter, r *exchange.Request) {
		select {
		case <-r.Gone():
			ended <- true
		case <-time.After(30 * time.Second):
			ended <- false
		}
	})))
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "GET", srv.URL+"/feed", nil)
	go func() { time.Sleep(50 * time.Millisecond); cancel() }()
	http.DefaultClient.Do(req)
	select {
	case gone := <-ended:
		if !gone {
			t.Fatal("the handler held its answer to the end")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the handler still holds 5 s after its client went")
	}
}
