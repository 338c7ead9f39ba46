package nethttp

import (
	"io"
	"net/http"
	"net/url"
	"time"

	"github.com/tabletopdb/tabletop/worker/rest/exchange"
	"github.com/tabletopdb/tabletop/worker/rest/uri"
)

// Handler returns h as an http.Handler. Each request is handed over in one allocation:
// the exchange.Request, its URL and the writer together.
func Handler(h exchange.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		x := &exchanged{w: writer{w}}
		fillRequest(&x.r, &x.u, r)
		h.Serve(&x.w, &x.r)
	})
}

// exchanged is what Handler allocates per request.
type exchanged struct {
	r exchange.Request
	u uri.URL
	w writer
}

// Request is r as an exchange.Request, sharing its header map and body.
func Request(r *http.Request) *exchange.Request {
	x := &exchanged{}
	fillRequest(&x.r, &x.u, r)
	return &x.r
}

// fillRequest sets dst to r as an exchange.Request, its URL (when r has one) in u.
func fillRequest(dst *exchange.Request, u *uri.URL, r *http.Request) {
	body := r.Body
	if body == nil {
		body = http.NoBody
	}
	*dst = exchange.Request{
		Method: r.Method, RequestURI: r.RequestURI, Host: r.Host,
		Header: exchange.Header(r.Header), Body: body, ContentLength: r.ContentLength,
		Secure: r.TLS != nil, RemoteAddr: r.RemoteAddr,
		Gone: r.Context().Done, // net/http cancels it when the client goes
	}
	if r.URL != nil {
		*u = urlOf(r.URL)
		dst.URL = u
	}
}

// URL is u as a uri.URL (nil for nil): the same parts, so that its EscapedPath and
// RequestURI are u's.
func URL(u *url.URL) *uri.URL {
	if u == nil {
		return nil
	}
	v := urlOf(u)
	return &v
}

func urlOf(u *url.URL) uri.URL {
	return uri.URL{
		Scheme: u.Scheme, Opaque: u.Opaque, Host: u.Host, Path: u.Path, RawPath: u.RawPath,
		RawQuery: u.RawQuery, ForceQuery: u.ForceQuery,
	}
}

// Writer is w as an exchange.ResponseWriter, sharing its header map.
func Writer(w http.ResponseWriter) exchange.ResponseWriter { return writer{w} }

// writer adapts an http.ResponseWriter; it is an exchange.ReadDeadliner.
type writer struct{ w http.ResponseWriter }

func (w writer) Header() exchange.Header     { return exchange.Header(w.w.Header()) }
func (w writer) WriteHeader(status int)      { w.w.WriteHeader(status) }
func (w writer) Write(p []byte) (int, error) { return w.w.Write(p) }
func (w writer) SetReadDeadline(d time.Time) error {
	return http.NewResponseController(w.w).SetReadDeadline(d)
}

var _ exchange.ReadDeadliner = writer{}

// FromHandler returns the net/http handler h as an exchange.Handler, for a host that
// serves exchange requests (the native server's own HTTP layer serves its playground's
// files through net/http's file server this way). The http.Request shares r's header map
// and body; the http.ResponseWriter shares the answer's header map.
func FromHandler(h http.Handler) exchange.Handler {
	return exchange.HandlerFunc(func(w exchange.ResponseWriter, r *exchange.Request) {
		h.ServeHTTP(httpWriter{w}, httpRequest(r))
	})
}

// httpRequest is r as an http.Request.
func httpRequest(r *exchange.Request) *http.Request {
	u := &url.URL{}
	if r.URL != nil {
		*u = url.URL{
			Scheme: r.URL.Scheme, Opaque: r.URL.Opaque, Host: r.URL.Host, Path: r.URL.Path,
			RawPath: r.URL.RawPath, RawQuery: r.URL.RawQuery, ForceQuery: r.URL.ForceQuery,
		}
	}
	return &http.Request{
		Method: r.Method, URL: u, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: http.Header(r.Header), Body: io.NopCloser(r.Body), ContentLength: r.ContentLength,
		Host: r.Host, RemoteAddr: r.RemoteAddr, RequestURI: r.RequestURI,
	}
}

// httpWriter adapts an exchange.ResponseWriter to net/http's.
type httpWriter struct{ w exchange.ResponseWriter }

func (w httpWriter) Header() http.Header         { return http.Header(w.w.Header()) }
func (w httpWriter) WriteHeader(status int)      { w.w.WriteHeader(status) }
func (w httpWriter) Write(p []byte) (int, error) { return w.w.Write(p) }
