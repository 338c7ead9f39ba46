//go:build !js

// Package native is Tabletop's native server, which the tabletop command runs
// (worker/tabletop): the Azure Table service REST API on a local address, for the official
// SDKs, Azure Storage Explorer and curl.
//
//	tabletop                                  # 127.0.0.1:10002, data in ./data
//	tabletop -data :memory:                   # nothing persisted
//	tabletop -addr 127.0.0.1:0                # any free port; the address is printed
//	tabletop -index Orders.Price              # keep a secondary index (worker/rest/README.md)
//	tabletop -cert c.pem -key k.pem           # HTTPS (tls.go)
//
// It prints the connection string of each account it serves, logs one line per request
// (unless -quiet) and stops gracefully on SIGINT or SIGTERM: requests in flight finish and
// the store is closed, so every acknowledged write is on disk. TABLETOP_CPUPROFILE and
// TABLETOP_MEMPROFILE, when set, name files for a CPU and an allocation profile of the
// run (profile.go; the side-by-side benchmark sets them with BENCH_PROFILE).
//
// Connections are served by the server's own HTTP/1.1 layer (package http1), which reads
// each request straight into the REST handler's types. Requests it cannot read
// (malformed framing or headers, an unknown Transfer-Encoding, headers over 1 MiB) are
// answered 400 with an Azure error body (InvalidInput, UnsupportedHeader), as an SDK can
// read it (proto.go). Request bodies are bounded by the REST handler (worker/rest):
// buffered as they arrive, 64 MiB of bodies in memory at most, 60 s to arrive.
//
// With a subcommand it moves data instead (see package transfer):
//
//	tabletop copy SRC DST        # between endpoints, dump files and Azurite's database file
//	tabletop export SRC [FILE]   # to a dump file
//	tabletop import FILE DST     # from a dump (or browser export) file
//
// and `tabletop salvage DIR` recovers an account's directory that the server refuses to
// open because a file in it is damaged (see package file).
package native

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/worker/rest/auth"
)

// config is the command line.
type config struct {
	addr     string
	data     string
	web      string
	accounts string
	quiet    bool
	// retention is how long deletion records are kept for sync clients (core.Options.DeletionRetention).
	retention time.Duration
	// indexes are the secondary indexes every account's store keeps (core.Options.Indexes).
	indexes indexFlag
	// purgeEvery is how often expired deletion records are dropped; zero means purgeInterval.
	purgeEvery time.Duration
	// cert and key are the files of the TLS certificate and its key: HTTPS when given (tls.go).
	cert, key string
	// oauth accepts OAuth bearer tokens (entra.Tokens), over HTTPS.
	oauth bool
	// version prints the version instead of serving.
	version bool
}

// serveMain runs `tabletop [serve] [flags]`: the server, until SIGINT or SIGTERM.
func serveMain(args []string, stdout, stderr io.Writer) int {
	fs, cfg := serveFlags(stderr)
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	if cfg.version {
		printVersion(stdout)
		return 0
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "tabletop: unexpected argument %q\n", fs.Arg(0))
		fs.Usage()
		return 2
	}
	stopProfiles, err := startProfiles(os.Getenv)
	if err == nil {
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		err = run(ctx, *cfg, stdout, stderr)
		stop()
		err = errors.Join(err, stopProfiles())
	}
	if err != nil {
		fmt.Fprintln(stderr, "tabletop:", err)
		return 1
	}
	fmt.Fprintln(stdout, "Tabletop stopped: every acknowledged write is on disk")
	return 0
}

// serveFlags defines the server's flags.
func serveFlags(stderr io.Writer) (*flag.FlagSet, *config) {
	cfg := &config{}
	fs := flag.NewFlagSet("tabletop serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, usage); fs.PrintDefaults() }
	fs.StringVar(&cfg.addr, "addr", "127.0.0.1:10002", "address to listen on (port 0: any free port)")
	fs.StringVar(&cfg.data, "data", "data", "data directory, one subdirectory per account; :memory: keeps nothing")
	fs.StringVar(&cfg.web, "web", "web", "directory of the playground, served at / and /web/ when present")
	fs.StringVar(&cfg.accounts, "accounts", "", "accounts as name:key[:key2][;name:key...] (base64 keys); default devstoreaccount1 with its well-known key")
	fs.BoolVar(&cfg.quiet, "quiet", false, "do not log requests")
	fs.DurationVar(&cfg.retention, "retention", defaultRetention, "how long deleted entities and tables are remembered for sync clients' change feeds; 0 remembers none")
	fs.StringVar(&cfg.cert, "cert", "", "TLS certificate file (PEM): serve HTTPS, with -key")
	fs.StringVar(&cfg.key, "key", "", "TLS private key file (PEM), with -cert")
	fs.BoolVar(&cfg.oauth, "oauth", false, "accept OAuth (Microsoft Entra ID) bearer tokens over HTTPS: claims checked, signature not")
	fs.BoolVar(&cfg.version, "version", false, "print the version and exit")
	fs.Var(&cfg.indexes, "index", "secondary index to keep, as table.property (repeat the flag, or separate with commas); declared in every account, on the table now or when it is created")
	return fs, cfg
}

// run serves until ctx is done, then shuts down gracefully. It writes the address and the
// connection strings to out and the request log to logw.
func run(ctx context.Context, cfg config, out, logw io.Writer) error {
	accts, err := auth.ParseAccounts(cfg.accounts)
	if err != nil {
		return err
	}
	stores, err := openStores(cfg.data, accts, core.Options{DeletionRetention: cfg.retention, Indexes: cfg.indexes}, logw)
	if err != nil {
		return err
	}
	defer stores.close()
	stopPurging := stores.purgeEvery(ctx, cmp.Or(cfg.purgeEvery, purgeInterval), func(err error) {
		fmt.Fprintln(logw, "tabletop: purge deletion records:", err)
	})
	defer stopPurging()
	var logger *log.Logger
	if !cfg.quiet {
		logger = log.New(logw, "", log.LstdFlags|log.Lmicroseconds)
	}
	srv, err := newServer(cfg, stores.accounts, logger)
	if err != nil {
		return err
	}
	return srv.serve(ctx, out)
}
