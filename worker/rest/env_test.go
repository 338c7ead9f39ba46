//go:build !js

package rest_test

import (
	"context"
	"errors"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/worker/native/http1"
	"github.com/tabletopdb/tabletop/worker/rest"
	"github.com/tabletopdb/tabletop/worker/rest/auth"
	"github.com/tabletopdb/tabletop/worker/rest/exchange"
)

// env is a Handler for the development account on a loopback server, with SDK clients.
type env struct {
	t     *testing.T
	addr  string // the server's host:port
	store *core.Store
	url   string // service URL, path style: http://127.0.0.1:port/devstoreaccount1
	cred  *aztables.SharedKeyCredential
	svc   *aztables.ServiceClient
}

var ctx = context.Background()

// newEnv starts a server over a fresh in-memory store.
func newEnv(t testing.TB) *env { return newEnvAt(t, nil) }

// newEnvAt is newEnv with a clock for the store's Timestamps; nil is time.Now.
func newEnvAt(t testing.TB, now func() time.Time) *env {
	t.Helper()
	return newEnvWith(t, core.Options{Now: now})
}

// newEnvWith is newEnv over a store opened with opts.
func newEnvWith(t testing.TB, opts core.Options) *env {
	t.Helper()
	return newEnvServing(t, opts, rest.Options{})
}

// newEnvServing is newEnvWith with the handler's options (but its accounts) as given.
func newEnvServing(t testing.TB, opts core.Options, serving rest.Options) *env {
	t.Helper()
	st, err := core.Open(opts)
	if err != nil {
		t.Fatal(err)
	}
	serving.Accounts = []*rest.Account{{Account: auth.DevAccount(), Store: st}}
	h, err := rest.New(serving)
	if err != nil {
		t.Fatal(err)
	}
	addr := serve(t, h)
	t.Cleanup(func() { st.Close() })
	e := &env{addr: addr, store: st, url: "http://" + addr + "/" + auth.DevAccountName}
	e.cred, err = aztables.NewSharedKeyCredential(auth.DevAccountName, auth.DevAccountKey)
	if err != nil {
		t.Fatal(err)
	}
	e.svc, err = aztables.NewServiceClientWithSharedKey(e.url, e.cred, clientOptions())
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// serve serves h as the native server does (worker/native/http1) on a free loopback port
// until the test ends, and returns its address.
func serve(t testing.TB, h exchange.Handler) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &http1.Server{Handler: h}
	go s.Serve(ln)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		s.Shutdown(ctx)
	})
	return ln.Addr().String()
}

// clientOptions turns retries off, so that failures show at once.
func clientOptions() *aztables.ClientOptions {
	return &aztables.ClientOptions{ClientOptions: azcore.ClientOptions{
		Retry:     policy.RetryOptions{MaxRetries: -1},
		Transport: http.DefaultClient,
	}}
}

// table creates a table and returns its client.
func (e *env) table(t testing.TB, name string) *aztables.Client {
	t.Helper()
	if _, err := e.svc.CreateTable(ctx, name, nil); err != nil {
		t.Fatalf("create table %s: %v", name, err)
	}
	return e.svc.NewClient(name)
}

// wantCode fails unless err is an *azcore.ResponseError with the code and status.
func wantCode(t testing.TB, err error, status int, code string) {
	t.Helper()
	var re *azcore.ResponseError
	if !errors.As(err, &re) {
		t.Fatalf("err = %v, want a ResponseError %d %s", err, status, code)
	}
	if re.StatusCode != status || re.ErrorCode != code {
		t.Fatalf("err = %d %s, want %d %s\n%v", re.StatusCode, re.ErrorCode, status, code, err)
	}
}
