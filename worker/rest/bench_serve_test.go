//go:build !js

package rest_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/worker/rest"
	"github.com/tabletopdb/tabletop/worker/rest/auth"
	"github.com/tabletopdb/tabletop/worker/rest/nethttp"
)

// BenchmarkServe measures the REST handler alone, without the network: a signed Insert
// Entity (Prefer: return-no-content) and a signed Get Entity, each served from a request
// built beforehand, as the native server hands them to it. It reports the handler's
// cost per request and its allocations.
func BenchmarkServe(b *testing.B) {
	st, err := core.Open(core.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	h, err := rest.New(rest.Options{Accounts: []*rest.Account{{Account: auth.DevAccount(), Store: st}}})
	if err != nil {
		b.Fatal(err)
	}
	st.CreateTable("bench")
	seed := &model.Entity{PartitionKey: "seed", RowKey: "1", Properties: []model.Property{
		{Name: "Name", Value: model.StringValue("entity number 1")}, {Name: "Count", Value: model.Int32Value(1)},
		{Name: "Score", Value: model.DoubleValue(1.5)}, {Name: "Active", Value: model.BoolValue(true)}}}
	if _, err := st.Apply("bench", core.Op{Kind: core.OpInsert, Entity: seed}); err != nil {
		b.Fatal(err)
	}
	e := &env{url: "http://127.0.0.1:10002/" + auth.DevAccountName}
	serve := func(b *testing.B, req *http.Request, body string, status int) {
		rec := httptest.NewRecorder()
		if body != "" {
			req.Body = readerOf(body)
		}
		nethttp.Handler(h).ServeHTTP(rec, req)
		if rec.Code != status {
			b.Fatalf("status %d, want %d: %s", rec.Code, status, rec.Body)
		}
	}
	// i numbers the inserted entities across every run of the insert benchmark: with
	// -count N, b.Run runs it N times against this one store, and a RowKey used in an
	// earlier run would be answered 409 EntityAlreadyExists.
	i := 0
	b.Run("insert", func(b *testing.B) {
		for b.Loop() {
			i++
			body := fmt.Sprintf(`{"PartitionKey":"p%02d","RowKey":"%09d","Name":"entity number %d","Count":%d,"Score":1.5,"Active":true}`, i%20, i, i, i)
			req := signedRequest(b, e, http.MethodPost, "/bench", body)
			req.Header.Set("Prefer", "return-no-content")
			serve(b, req, body, http.StatusNoContent)
		}
	})
	b.Run("get", func(b *testing.B) {
		req := signedRequest(b, e, http.MethodGet, "/bench(PartitionKey='seed',RowKey='1')", "")
		for b.Loop() {
			serve(b, req, "", http.StatusOK)
		}
	})
}

func readerOf(s string) *readCloser { return &readCloser{strings.NewReader(s)} }

type readCloser struct{ *strings.Reader }

func (readCloser) Close() error { return nil }
