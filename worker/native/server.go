//go:build !js

package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"time"

	"github.com/tabletopdb/tabletop/worker/rest"
	"github.com/tabletopdb/tabletop/worker/rest/exchange"
	"github.com/tabletopdb/tabletop/worker/rest/http1"
)

// shutdownTimeout bounds how long a graceful shutdown waits for requests in flight.
const shutdownTimeout = 30 * time.Second

// server is the HTTP server with its handler chain: request log, playground, REST API.
type server struct {
	addr     string
	accounts []*rest.Account
	api      *rest.Handler
	http     *http1.Server
}

func newServer(cfg config, accounts []*rest.Account, logger *log.Logger) (*server, error) {
	api, err := rest.New(rest.Options{Accounts: accounts, MaxWait: rest.DefaultMaxWait})
	if err != nil {
		return nil, err
	}
	var h exchange.Handler = withWeb(cfg.web, api)
	if logger != nil {
		h = withLog(logger, h)
	}
	hs := &http1.Server{Handler: h, Refuse: refuse, ReadHeaderTimeout: 30 * time.Second, IdleTimeout: 2 * time.Minute, WriteTimeout: time.Minute}
	return &server{addr: cfg.addr, accounts: accounts, api: api, http: hs}, nil
}

// serve listens, prints where and how to connect, and serves until ctx is done; then it
// stops accepting, lets requests in flight finish, and returns.
func (s *server) serve(ctx context.Context, out io.Writer) error {
	ln, err := net.Listen("tcp", s.addr)
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	s.announce(out, ln.Addr().String())
	errc := make(chan error, 1)
	go func() { errc <- s.http.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
	defer cancel()
	s.api.StopWaits() // a change feed request held open would hold the shutdown
	err = s.http.Shutdown(sctx)
	if serr := <-errc; !errors.Is(serr, http1.ErrServerClosed) {
		err = errors.Join(err, serr)
	}
	return err
}

// announce prints the address served and each account's connection string.
func (s *server) announce(out io.Writer, addr string) {
	fmt.Fprintf(out, "Tabletop listening on http://%s\n", addr)
	for _, a := range s.accounts {
		fmt.Fprintf(out, "%s\n", connectionString(addr, a))
	}
}

// connectionString is the connection string for account a served at addr, path style.
func connectionString(addr string, a *rest.Account) string {
	key := ""
	if len(a.Keys) > 0 {
		key = encodeKey(a.Keys[0])
	}
	return fmt.Sprintf("DefaultEndpointsProtocol=http;AccountName=%s;AccountKey=%s;TableEndpoint=http://%s/%s;",
		a.Name, key, addr, a.Name)
}
