//go:build !js

package native

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"time"

	"github.com/tabletopdb/tabletop/worker/native/http1"
	"github.com/tabletopdb/tabletop/worker/rest"
	"github.com/tabletopdb/tabletop/worker/rest/auth/entra"
	"github.com/tabletopdb/tabletop/worker/rest/exchange"
)

// shutdownTimeout bounds how long a graceful shutdown waits for requests in flight.
const shutdownTimeout = 30 * time.Second

// server is the HTTP server with its handler chain: request log, playground, REST API.
type server struct {
	addr     string
	accounts []*rest.Account
	api      *rest.Handler
	http     *http1.Server
	tls      *tls.Config // nil: plain HTTP
}

func newServer(cfg config, accounts []*rest.Account, logger *log.Logger) (*server, error) {
	tlsConfig, err := loadTLS(cfg.cert, cfg.key)
	if err != nil {
		return nil, err
	}
	opts := rest.Options{Accounts: accounts, MaxWait: rest.DefaultMaxWait}
	if cfg.oauth {
		if tlsConfig == nil {
			return nil, errors.New("-oauth needs HTTPS (-cert and -key): bearer tokens are accepted over HTTPS only")
		}
		opts.Tokens = entra.Tokens{}
	}
	api, err := rest.New(opts)
	if err != nil {
		return nil, err
	}
	var h exchange.Handler = withWeb(cfg.web, api)
	if logger != nil {
		h = withLog(logger, h)
	}
	hs := &http1.Server{Handler: h, Refuse: refuse, ReadHeaderTimeout: 30 * time.Second, IdleTimeout: 2 * time.Minute, WriteTimeout: time.Minute}
	return &server{addr: cfg.addr, accounts: accounts, api: api, http: hs, tls: tlsConfig}, nil
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
	go func() { errc <- s.http.Serve(sniffListener{Listener: ln, tls: s.tls}) }()
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
	fmt.Fprintf(out, "Tabletop listening on %s://%s\n", s.scheme(), addr)
	for _, a := range s.accounts {
		fmt.Fprintf(out, "%s\n", connectionString(s.scheme(), addr, a))
	}
}

// scheme is the URL scheme the server speaks.
func (s *server) scheme() string {
	if s.tls != nil {
		return "https"
	}
	return "http"
}

// connectionString is the connection string for account a served at addr over scheme,
// path style.
func connectionString(scheme, addr string, a *rest.Account) string {
	key := ""
	if len(a.Keys) > 0 {
		key = encodeKey(a.Keys[0])
	}
	return fmt.Sprintf("DefaultEndpointsProtocol=%s;AccountName=%s;AccountKey=%s;TableEndpoint=%s://%s/%s;",
		scheme, a.Name, key, scheme, addr, a.Name)
}
