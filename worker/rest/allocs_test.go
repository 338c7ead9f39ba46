//go:build !js

package rest_test

import (
	"bytes"
	"net/http"
	"testing"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/worker/rest"
	"github.com/tabletopdb/tabletop/worker/rest/auth"
	"github.com/tabletopdb/tabletop/worker/rest/exchange"
	"github.com/tabletopdb/tabletop/worker/rest/nethttp"
)

// maxInsertAllocs is what one signed Insert Entity (Prefer: return-no-content) may
// allocate in the REST handler and the store, from the request as the host hands it over
// to the answer given back: the figure measured when it was set, with a margin of a few
// so that a change of Go version does not fail it, but a new allocation per request on
// the write path does.
const maxInsertAllocs = 22

// TestHandler_InsertAllocs pins the allocations of an insert (see insertServer), so
// that they do not creep back.
func TestHandler_InsertAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector drops pooled values (the signature scratch, the JSON member table) at random")
	}
	insert := insertServer(t)
	if got := testing.AllocsPerRun(200, insert); got > maxInsertAllocs {
		t.Errorf("an insert allocates %.0f times, want at most %d", got, maxInsertAllocs)
	} else {
		t.Logf("an insert allocates %.0f times (at most %d)", got, maxInsertAllocs)
	}
}

// BenchmarkHandler_Insert measures what TestHandler_InsertAllocs counts: the REST
// handler and the store serving a signed insert, without the network and without
// signing it (BenchmarkServe/insert signs each one).
func BenchmarkHandler_Insert(b *testing.B) {
	insert := insertServer(b)
	b.ReportAllocs()
	for b.Loop() {
		insert()
	}
}

// insertServer returns a function that serves one more signed Insert Entity (Prefer:
// return-no-content) to a REST handler over a memory store, as the native server hands
// requests over, and fails tb unless it is answered 204. The request is signed once
// (Shared Key Lite signs the date and the path, not the body) and sent again with a new
// RowKey each time, answered into a writer that keeps its header map.
func insertServer(tb testing.TB) func() {
	st, err := core.Open(core.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { st.Close() })
	h, err := rest.New(rest.Options{Accounts: []*rest.Account{{Account: auth.DevAccount(), Store: st}}})
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := st.CreateTable("bench"); err != nil {
		tb.Fatal(err)
	}
	body := []byte(`{"PartitionKey":"p01","RowKey":"000000000","Name":"entity number 1","Count":1,"Score":1.5,"Active":true}`)
	digits := bytes.Index(body, []byte("000000000"))
	hr := signedRequest(tb, &env{url: "http://127.0.0.1:10002/" + auth.DevAccountName}, http.MethodPost, "/bench", string(body))
	hr.Header.Set("Prefer", "return-no-content")
	r := nethttp.Request(hr)
	r.RequestURI = hr.URL.RequestURI() // as the server receives it
	var rd bytes.Reader
	w := &keptWriter{header: exchange.Header{}}
	n := 0
	insert := func() {
		n++
		for i, m := digits+8, n; i >= digits; i, m = i-1, m/10 {
			body[i] = '0' + byte(m%10)
		}
		rd.Reset(body)
		r.Body = &rd
		clear(w.header)
		w.status = 0
		h.Serve(w, r)
		if w.status != http.StatusNoContent {
			tb.Fatalf("insert %d: status %d", n, w.status)
		}
	}
	insert() // the first write gives the store its identity
	return insert
}

// keptWriter is an exchange.ResponseWriter that keeps its header map between answers
// and discards the body.
type keptWriter struct {
	header exchange.Header
	status int
}

func (w *keptWriter) Header() exchange.Header { return w.header }
func (w *keptWriter) WriteHeader(status int) {
	if w.status == 0 {
		w.status = status
	}
}
func (w *keptWriter) Write(p []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	return len(p), nil
}
