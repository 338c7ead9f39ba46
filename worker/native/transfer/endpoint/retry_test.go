package endpoint_test

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/tabletopdb/tabletop/core/azerr"
	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/worker/native/transfer/endpoint"
	"github.com/tabletopdb/tabletop/worker/native/transfer/transfertest"
)

// flaky answers 503 to the first failures requests, then passes them to a Tabletop server.
func flaky(t *testing.T, failures int64) (conn string, requests *atomic.Int64) {
	srv := transfertest.NewServer(t)
	u, _ := url.Parse(srv.URL)
	proxy := httputil.NewSingleHostReverseProxy(&url.URL{Scheme: u.Scheme, Host: u.Host})
	requests = &atomic.Int64{}
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if requests.Add(1) <= failures {
			w.Header().Set("x-ms-error-code", azerr.ServerBusy.Name)
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(front.Close)
	return strings.Replace(srv.ConnectionString, srv.URL, front.URL+"/devstoreaccount1", 1), requests
}

func TestClient_retry(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		conn, requests := flaky(t, 2)
		c, err := endpoint.Parse(conn)
		if err != nil {
			t.Fatal(err)
		}
		if err := c.CreateTable(ctx, "tbl"); err != nil {
			t.Fatal(err)
		}
		if err := c.Upsert(ctx, "tbl", []*model.Entity{{PartitionKey: "p", RowKey: "r"}}); err != nil {
			t.Fatal(err)
		}
		if n := requests.Load(); n != 4 {
			t.Fatalf("%d requests, want 2 refused and 2 answered", n)
		}
	})
	t.Run("ErrServerBusy", func(t *testing.T) {
		conn, requests := flaky(t, 100)
		c, _ := endpoint.Parse(conn)
		err := c.CreateTable(ctx, "tbl")
		var e *endpoint.Error
		if !errors.As(err, &e) || e.Status != http.StatusServiceUnavailable || requests.Load() != 5 {
			t.Fatalf("err %v after %d requests, want 503 after 5", err, requests.Load())
		}
	})
}
