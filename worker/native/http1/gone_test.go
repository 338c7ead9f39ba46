package http1

import (
	"strings"
	"testing"
	"time"

	"github.com/tabletopdb/tabletop/worker/rest/exchange"
)

// holding answers after up to hold, or once the client is gone, with what ended the wait
// ("gone", "held", or "unwatched" when the request offered no watch); it reports each on
// ended.
func holding(hold time.Duration, ended chan<- string) exchange.Handler {
	return exchange.HandlerFunc(func(w exchange.ResponseWriter, r *exchange.Request) {
		gone := r.Gone()
		how := "held"
		select {
		case <-gone:
			how = "gone"
		case <-time.After(hold):
			if gone == nil {
				how = "unwatched"
			}
		}
		ended <- how
		w.Header().Set("Content-Type", "text/plain")
		w.Write([]byte(how))
	})
}

// TestServer_Gone: a handler holding its answer learns at once that its client closed
// the connection; a client that pipelines its next request is not taken for gone, and
// that request is answered after; a request with a body is not watched.
func TestServer_Gone(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		ended := make(chan string, 1)
		addr := serveTest(t, &Server{Handler: holding(30*time.Second, ended)})
		rc := dial(t, addr)
		rc.send("GET /feed HTTP/1.1\r\nHost: x\r\n\r\n")
		time.Sleep(50 * time.Millisecond) // the handler is holding
		start := time.Now()
		rc.c.Close()
		select {
		case how := <-ended:
			if how != "gone" || time.Since(start) > time.Second {
				t.Fatalf("the handler ended %q after %v", how, time.Since(start))
			}
		case <-time.After(5 * time.Second):
			t.Fatal("the handler still holds 5 s after its client went")
		}
	})
	t.Run("OKPipelined", func(t *testing.T) {
		ended := make(chan string, 2)
		addr := serveTest(t, &Server{Handler: holding(200*time.Millisecond, ended)})
		rc := dial(t, addr)
		rc.send("GET /1 HTTP/1.1\r\nHost: x\r\n\r\n")
		time.Sleep(50 * time.Millisecond)
		rc.send("GET /2 HTTP/1.1\r\nHost: x\r\n\r\n")
		for i := range 2 {
			resp, body := rc.read("GET")
			if resp.StatusCode != 200 || body != "held" {
				t.Fatalf("answer %d: %d %q", i+1, resp.StatusCode, body)
			}
		}
	})
	t.Run("OKBodyUnwatched", func(t *testing.T) {
		ended := make(chan string, 1)
		addr := serveTest(t, &Server{Handler: holding(50*time.Millisecond, ended)})
		rc := dial(t, addr)
		rc.send("POST /x HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc")
		if resp, body := rc.read("POST"); resp.StatusCode != 200 || !strings.Contains(body, "unwatched") {
			t.Fatalf("answer: %d %q", resp.StatusCode, body)
		}
	})
}
