package transfertest

import (
	"net/http/httptest"
	"testing"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/worker/rest"
	"github.com/tabletopdb/tabletop/worker/rest/auth"
	"github.com/tabletopdb/tabletop/worker/rest/nethttp"
)

// Server is a Tabletop REST server for the development account over an in-memory store,
// on a loopback port, stopped when the test ends.
type Server struct {
	URL              string // service URL, path style: http://127.0.0.1:port/devstoreaccount1
	ConnectionString string
	Store            *core.Store
}

// NewServer starts a Server.
func NewServer(t testing.TB) *Server {
	t.Helper()
	st, err := core.Open(core.Options{})
	if err != nil {
		t.Fatal(err)
	}
	h, err := rest.New(rest.Options{Accounts: []*rest.Account{{Account: auth.DevAccount(), Store: st}}})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(nethttp.Handler(h))
	t.Cleanup(func() { srv.Close(); st.Close() })
	url := srv.URL + "/" + auth.DevAccountName
	return &Server{
		URL:              url,
		ConnectionString: "DefaultEndpointsProtocol=http;AccountName=" + auth.DevAccountName + ";AccountKey=" + auth.DevAccountKey + ";TableEndpoint=" + url + ";",
		Store:            st,
	}
}
