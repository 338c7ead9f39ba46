package nethttp_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"

	"github.com/tabletopdb/tabletop/worker/rest/exchange"
	"github.com/tabletopdb/tabletop/worker/rest/nethttp"
)

// hello answers every request with its method and path.
type hello struct{}

func (hello) Serve(w exchange.ResponseWriter, r *exchange.Request) {
	w.Header().Set("Content-Type", "text/plain")
	w.WriteHeader(exchange.StatusOK)
	fmt.Fprintf(w, "%s %s", r.Method, r.URL.Path)
}

// Example serves an exchange.Handler (such as worker/rest's Handler) from net/http.
func Example() {
	srv := httptest.NewServer(nethttp.Handler(hello{}))
	defer srv.Close()
	res, err := http.Get(srv.URL + "/devstoreaccount1/Tables")
	if err != nil {
		panic(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	fmt.Println(res.StatusCode, res.Header.Get("Content-Type"), string(body))
	// Output: 200 text/plain GET /devstoreaccount1/Tables
}
