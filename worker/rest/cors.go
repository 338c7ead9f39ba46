package rest

import (
	"bytes"
	"sync"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/worker/rest/exchange"
	"github.com/tabletopdb/tabletop/worker/rest/xmldoc"
)

// corsCache keeps an account's parsed service properties, keyed by the document, so that
// requests with an Origin do not parse XML each time.
type corsCache struct {
	mu       sync.Mutex
	raw      string
	parsed   *xmldoc.Properties
	borrowed bool // raw was given by UseProperties: the store's document is not used
}

// UseProperties makes the account answer CORS from raw, a service properties document
// kept elsewhere ("" for the defaults), instead of from its store: at the edge, a table's
// object answers with the rules its account's object keeps. raw is kept in memory only.
func (a *Account) UseProperties(raw string) {
	a.cors.mu.Lock()
	defer a.cors.mu.Unlock()
	a.cors.borrowed = true
	if raw != a.cors.raw {
		a.cors.raw, a.cors.parsed = raw, nil
	}
}

// PropertiesDocument returns the service properties document stored in the account's
// store, "" if none was ever set.
func (a *Account) PropertiesDocument() (raw string, err error) {
	err = a.Store.View(func(tx *core.Tx) error {
		raw, _, err = tx.Meta(propertiesMeta)
		return err
	})
	return raw, err
}

// properties returns the account's service properties: stored (or borrowed), or the
// defaults.
func (a *Account) properties() (*xmldoc.Properties, error) {
	a.cors.mu.Lock()
	borrowed, raw := a.cors.borrowed, a.cors.raw
	a.cors.mu.Unlock()
	if !borrowed {
		var err error
		if raw, err = a.PropertiesDocument(); err != nil {
			return nil, err
		}
	}
	a.cors.mu.Lock()
	defer a.cors.mu.Unlock()
	if a.cors.parsed != nil && a.cors.raw == raw {
		return a.cors.parsed, nil
	}
	p := xmldoc.DefaultProperties()
	if raw != "" {
		stored, err := xmldoc.ParseProperties(bytes.NewReader([]byte(raw)))
		if err != nil {
			return nil, err
		}
		p = xmldoc.Merge(p, stored)
	}
	a.cors.raw, a.cors.parsed = raw, p
	return p, nil
}

// CORSHeaders returns the CORS headers the account's rules add to an answer, with
// headers of the names given, to a request with method from origin: nil when none. It is
// for answers a host builds itself (the edge's entry Worker), which get the headers the
// handler's own answers get.
func (a *Account) CORSHeaders(origin, method string, names []string) (exchange.Header, error) {
	p, err := a.properties()
	if err != nil {
		return nil, err
	}
	answer := make(exchange.Header, len(names))
	for _, n := range names {
		answer[exchange.CanonicalKey(n)] = nil
	}
	return p.ActualRequestHeaders(origin, method, answer), nil
}

// preflight answers a CORS preflight (OPTIONS, no authentication) from the account's
// CORS rules: 200 with the Access-Control headers, or 403 CorsPreflightFailure.
func (c *call) preflight() {
	c.xmlErrors = true
	origin := c.r.Header.Get("Origin")
	method := c.r.Header.Get("Access-Control-Request-Method")
	if origin == "" || method == "" {
		c.fail(ErrHeaderMissing)
		return
	}
	p, err := c.acct.properties()
	if err != nil {
		c.fail(err)
		return
	}
	res, ok := p.Preflight(origin, method, xmldoc.SplitList(c.r.Header.Get("Access-Control-Request-Headers")))
	if !ok {
		c.fail(ErrPreflightFailed)
		return
	}
	for k, v := range res.Header() {
		c.w.Header()[k] = v
	}
	c.noContent(exchange.StatusOK)
}

// applyCORS makes the answer to a request with an Origin carry the CORS headers of the
// account's rules, computed when the status is written, from the answer's headers.
func (c *call) applyCORS() {
	origin := c.r.Header.Get("Origin")
	if origin == "" {
		return
	}
	p, err := c.acct.properties()
	if err != nil || len(p.Cors) == 0 {
		return
	}
	c.w = &corsWriter{ResponseWriter: c.w, props: p, origin: origin, method: c.r.Method}
}

// corsWriter adds CORS headers to an answer just before its status is written.
type corsWriter struct {
	exchange.ResponseWriter
	props          *xmldoc.Properties
	origin, method string
	done           bool
}

func (w *corsWriter) WriteHeader(status int) {
	if !w.done {
		w.done = true
		for k, v := range w.props.ActualRequestHeaders(w.origin, w.method, w.Header()) {
			w.Header()[k] = v
		}
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *corsWriter) Write(b []byte) (int, error) {
	if !w.done {
		w.WriteHeader(exchange.StatusOK)
	}
	return w.ResponseWriter.Write(b)
}

// Unwrap gives exchange.SetReadDeadline the host's writer.
func (w *corsWriter) Unwrap() exchange.ResponseWriter { return w.ResponseWriter }
