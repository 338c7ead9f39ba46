package main

import (
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/worker/rest"
	"github.com/tabletopdb/tabletop/worker/rest/auth"
	"github.com/tabletopdb/tabletop/worker/rest/nethttp"
)

// serveStdlib serves Tabletop's REST handler, over an in-memory store as the native
// server's -data :memory: keeps one, through net/http's server (worker/rest/nethttp)
// instead of the native server's own HTTP/1.1 layer (worker/native/http1); it prints its
// endpoint and serves until killed. Measured beside the native server, it is what that
// layer is kept for: the same handler, another HTTP server.
func serveStdlib(addr string) error {
	st, err := core.Open(core.Options{})
	if err != nil {
		return err
	}
	h, err := rest.New(rest.Options{Accounts: []*rest.Account{{Account: auth.DevAccount(), Store: st}}, MaxWait: rest.DefaultMaxWait})
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	fmt.Printf("http://%s/%s\n", ln.Addr(), auth.DevAccountName)
	// The native server's timeouts (worker/native/server.go), as net/http spells them.
	srv := &http.Server{Handler: nethttp.Handler(h), ReadHeaderTimeout: 30 * time.Second, IdleTimeout: 2 * time.Minute, WriteTimeout: time.Minute}
	return srv.Serve(ln)
}
