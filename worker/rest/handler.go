package rest

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/worker/rest/auth"
	"github.com/tabletopdb/tabletop/worker/rest/exchange"
)

// Account is one storage account a Handler serves: its name and keys, and the store that
// holds its tables.
type Account struct {
	auth.Account
	Store *core.Store

	cors     corsCache     // the parsed service properties, for CORS on every request
	policies auth.Policies // storedPolicies, made once (see New)
	base     baseCache     // the base URL of the account's last request
}

// Options configure a Handler.
type Options struct {
	// Accounts are the storage accounts served, each with its own store. At least one.
	Accounts []*Account
	// Now is the clock for Date headers, error times and SAS expiry; nil means time.Now.
	Now func() time.Time
	// MaxEntityBytes caps the body of a single-entity request; zero means DefaultMaxEntityBytes.
	MaxEntityBytes int64
	// MaxBodyMemory caps the bytes of request bodies held in memory at once, across all
	// requests; a body that would pass it is answered 503 ServerBusy. Zero means
	// DefaultBodyMemory.
	MaxBodyMemory int64
	// BodyTimeout is the time a request has, from its arrival, to send its whole body;
	// a body still arriving then is answered 408 OperationTimedOut and its connection
	// closed. Zero means DefaultBodyTimeout. Hosts without read deadlines ignore it.
	BodyTimeout time.Duration
	// MaxWait is the longest a change feed request may wait for a change (its wait
	// parameter) before an empty page is answered. Zero serves no waits, as a host that
	// serves one request at a time (a Durable Object) must: the page is answered at once
	// and says so, and the client polls.
	MaxWait time.Duration
	// HostWaits makes the host, not the handler, hold a change feed request that waits:
	// an empty page asked to wait is answered at once with HoldHeader, and the host holds
	// it until the store is written to and serves it again (the edge's objects, which
	// must not block while serving).
	HostWaits bool
	// Tokens, if set, verifies OAuth bearer tokens (entra.Tokens: the native server's
	// -oauth); nil refuses them.
	Tokens auth.TokenVerifier
	// NeedRange, if set, is told when an error answer is a partial store's
	// (core.Options.Partial) lacking a key range: the host loads the range and serves the
	// request again, throwing that answer away (the edge's Durable Objects, which load
	// their table's key ranges on demand). Nothing was changed by the request.
	NeedRange func(*core.NeedRangeError)
}

// DefaultMaxWait is a MaxWait for a server that holds each request in its own goroutine:
// under the idle timeouts of common proxies and load balancers.
const DefaultMaxWait = 50 * time.Second

// DefaultMaxEntityBytes is the default cap on a single-entity request body. An entity of
// 1 MiB by Azure's size formula can take several MiB of JSON (escapes, base64, names); the
// store enforces the formula itself.
const DefaultMaxEntityBytes = 4 << 20

// Handler serves the Azure Table service REST API. It is safe for concurrent use.
type Handler struct {
	accounts    map[string]*Account
	first       *Account // the first of Options.Accounts: its CORS rules answer for an account not served
	now         func() time.Time
	maxEntity   int64
	bodies      *bodyBudget
	bodyTimeout time.Duration
	maxWait     time.Duration
	hostWaits   bool
	tokens      auth.TokenVerifier
	needRange   func(*core.NeedRangeError)
	stopWaits   chan struct{} // closed by StopWaits; made on first use (stopped)
	stopMake    sync.Once
	stopOnce    sync.Once
}

// Errors of New.
var (
	// ErrNoAccounts means Options named no account to serve.
	ErrNoAccounts = errors.New("no accounts configured")
	// ErrAccountInvalid means an account lacks a name or a store, or is named twice.
	ErrAccountInvalid = errors.New("account lacks a name or a store, or is named twice")
)

// New returns a Handler serving the accounts of opts.
func New(opts Options) (*Handler, error) {
	if len(opts.Accounts) == 0 {
		return nil, ErrNoAccounts
	}
	h := &Handler{accounts: make(map[string]*Account), now: opts.Now, maxEntity: opts.MaxEntityBytes,
		bodies:      &bodyBudget{max: orDefaultInt(opts.MaxBodyMemory, DefaultBodyMemory)},
		bodyTimeout: time.Duration(orDefaultInt(int64(opts.BodyTimeout), int64(DefaultBodyTimeout))), maxWait: max(opts.MaxWait, 0), hostWaits: opts.HostWaits, tokens: opts.Tokens,
		needRange: opts.NeedRange}
	if h.now == nil {
		h.now = time.Now
	}
	if h.maxEntity <= 0 {
		h.maxEntity = DefaultMaxEntityBytes
	}
	h.first = opts.Accounts[0]
	for _, a := range opts.Accounts {
		if a.Store == nil || a.Name == "" || h.accounts[a.Name] != nil {
			return nil, fmt.Errorf("configure account %q: %w", a.Name, ErrAccountInvalid)
		}
		a.policies = a.storedPolicies
		h.accounts[a.Name] = a
	}
	return h, nil
}

// StopWaits answers every change feed request waiting for a change at once, and every
// later one without waiting: a server shutting down calls it before it waits for the
// requests in flight.
func (h *Handler) StopWaits() {
	ch := h.stopped()
	h.stopOnce.Do(func() { close(ch) })
}

// stopped returns the channel StopWaits closes. It is made when first needed, not in New:
// a Durable Object's start compiles every function it runs (see worker/edge).
func (h *Handler) stopped() chan struct{} {
	h.stopMake.Do(func() { h.stopWaits = make(chan struct{}) })
	return h.stopWaits
}

// Serve answers one request of the Table service. Natively, the server (worker/native)
// reads each request with worker/native/http1 and calls it; worker/rest/nethttp adapts it
// to net/http for the tests' servers and the playground's files; at the edge,
// worker/edge/bridge calls it.
func (h *Handler) Serve(w exchange.ResponseWriter, r *exchange.Request) {
	c := h.newCall(w, r)
	defer c.release()
	path, err := c.resolveAccount()
	if err != nil {
		c.unknownAccount(err)
		return
	}
	if r.Method == exchange.MethodOptions {
		c.preflight()
		return
	}
	c.applyCORS()
	rt, err := c.routeRequest(path)
	if err == nil {
		err = c.authenticate()
	}
	if err != nil {
		c.fail(err)
		return
	}
	if c.r.ContentLength != 0 && (rt.method == exchange.MethodGet || rt.method == exchange.MethodDelete) {
		c.bodyFailed(nil) // a body the operation ignores: answer without waiting for it
	}
	rt.serve(c)
}

// ServeError answers r with err as the service answers an error (status, code, body, CORS
// headers): for a failure of the host's own around a request, such as a key range of a
// partial store that could not be loaded (Options.NeedRange).
func (h *Handler) ServeError(w exchange.ResponseWriter, r *exchange.Request, err error) {
	c := h.newCall(w, r)
	defer c.release()
	if _, aerr := c.resolveAccount(); aerr != nil {
		c.unknownAccount(aerr)
		return
	}
	c.applyCORS()
	c.fail(err)
}

// unknownAccount answers a request that names no account served (err) with the CORS rules
// of the first account: a browser that names a wrong account, whose every request is
// cross-origin, then reads the 400 InvalidUri instead of failing as if the server were
// down. Its preflight is answered as the first account's would be.
func (c *call) unknownAccount(err error) {
	c.acct = c.h.first
	if c.r.Method == exchange.MethodOptions {
		c.preflight()
		return
	}
	c.applyCORS()
	c.fail(err)
}

// routeRequest parses the query string and the resource path below the account, finds
// the operation and checks x-ms-version; errors of the XML operations are XML. A request
// without a query string (most writes) keeps a nil query, read as empty, and allocates none.
func (c *call) routeRequest(path string) (route, error) {
	var err error
	if raw := c.r.URL.RawQuery; raw != "" {
		c.query, err = parseQuery(raw)
	}
	if err == nil {
		c.res, err = parseResource(path)
	}
	if err != nil {
		return route{}, err
	}
	rt, err := c.route()
	c.xmlErrors = rt.xml
	switch {
	case err != nil:
		return rt, err
	case c.secondary && rt.method != exchange.MethodGet:
		return rt, ErrSecondaryReadOnly
	}
	return rt, c.checkVersion()
}

// resolveAccount finds the account, host style first, then path style, and returns the
// path below it.
func (c *call) resolveAccount() (string, error) {
	path := c.r.URL.Path
	if a, secondary := c.h.hostAccount(c.r.Host); a != nil {
		c.acct, c.secondary, c.base = a, secondary, a.base.get(c.scheme(), c.r.Host, "", "")
		return path, nil
	}
	below := strings.TrimPrefix(path, "/")
	name, _, found := strings.Cut(below, "/")
	a, secondary := c.h.account(name)
	if a == nil {
		return "", errUnknownAccount
	}
	c.acct, c.secondary, c.base = a, secondary, a.base.get(c.scheme(), c.r.Host, "/", name)
	if !found {
		return "/", nil
	}
	return below[len(name):], nil // from the "/" after the name
}

// secondarySuffix ends the name of an account's secondary (read-only) location, as in
// Azure's read-access geo-redundant storage: myaccount-secondary.table.core.windows.net,
// or http://127.0.0.1:10002/devstoreaccount1-secondary as Azurite serves it.
const secondarySuffix = "-secondary"

// account returns the account named name, or the account whose secondary location it
// names (secondary is then true).
func (h *Handler) account(name string) (a *Account, secondary bool) {
	if a := h.accounts[name]; a != nil {
		return a, false
	}
	if primary, ok := strings.CutSuffix(name, secondarySuffix); ok {
		return h.accounts[primary], h.accounts[primary] != nil
	}
	return nil, false
}

// hostAccount returns the account named by the first label of host (and whether it names
// its secondary location), unless host is an IP address or localhost, in which case
// requests name the account in the path.
func (h *Handler) hostAccount(host string) (*Account, bool) {
	if i := strings.LastIndexByte(host, ':'); i >= 0 && !strings.HasSuffix(host, "]") {
		host = host[:i]
	}
	label, _, found := strings.Cut(host, ".")
	if !found {
		return nil, false
	}
	return h.account(label)
}

// scheme is the scheme the client used: https behind TLS or a proxy that says so.
func (c *call) scheme() string {
	if c.secure() {
		return "https"
	}
	return "http"
}

// secure reports whether the client reached the service over HTTPS.
func (c *call) secure() bool {
	return c.r.Secure || strings.EqualFold(c.r.Header.Get("X-Forwarded-Proto"), "https")
}
