package auth

import (
	"strings"
	"time"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/worker/rest/exchange"
	"github.com/tabletopdb/tabletop/worker/rest/uri"
)

// DefaultClockSkew is how far a Shared Key request's date may be from the server's clock,
// as Azure allows.
const DefaultClockSkew = 15 * time.Minute

// Policies looks up a table's stored access policies (for a SAS's si); the REST layer
// passes a closure over the store.
type Policies func(table string) ([]core.AccessPolicy, error)

// Request is what verification needs from an HTTP request.
type Request struct {
	HTTP    *exchange.Request
	Account Account
	// CanonicalPath is the request path as sent, still percent-encoded, including the
	// account segment in path style (e.g. "/devstoreaccount1/mytable()"); the
	// canonicalized resource is "/" + account + CanonicalPath (+ "?comp=..."). Empty
	// means PathAsSent(HTTP).
	CanonicalPath string
	Policies      Policies
	Now           time.Time // zero means time.Now()
	Secure        bool      // the request came over https (for spr=https, and bearer tokens)
	// Tokens verifies OAuth bearer tokens (Authorization: Bearer …); nil refuses them all
	// (ErrInvalidToken).
	Tokens   TokenVerifier
	ClientIP uri.Addr // the client's address (for sip; a request with an Authorization header never reads it); the zero Addr when unknown
	// Query is the request's query string, parsed once by the caller; nil means
	// HTTP.URL.RawQuery as url.URL's Query reads it (malformed pairs left out).
	Query uri.Values
	// MaxClockSkew bounds the distance between a Shared Key request's date and Now:
	// 0 means DefaultClockSkew, a negative value turns the check off.
	MaxClockSkew time.Duration
}

// now returns the request's clock.
func (r *Request) now() time.Time {
	if r.Now.IsZero() {
		return time.Now()
	}
	return r.Now
}

// Verify authenticates a request by Shared Key, Shared Key Lite, table SAS, account SAS or
// (with Request.Tokens) bearer token. Every failure is an *AuthError; an error from
// Policies is returned wrapped as it is.
func Verify(r Request) (*Principal, error) {
	if r.HTTP == nil || r.HTTP.URL == nil {
		return nil, authFailed("no request")
	}
	if r.Query == nil && r.HTTP.URL.RawQuery != "" { // no query string: nil reads as empty
		r.Query, _ = uri.ParseQuery(r.HTTP.URL.RawQuery)
	}
	if h := r.HTTP.Header.Get("Authorization"); h != "" {
		if token, ok := strings.CutPrefix(h, "Bearer "); ok {
			return verifyBearer(&r, strings.TrimSpace(token))
		}
		return verifySharedKey(&r, h)
	}
	if r.Query.Get("sig") != "" {
		return verifySAS(&r, readSAS(r.Query))
	}
	return nil, authFailed("The request carries neither an Authorization header nor a shared access signature.")
}

// PathAsSent returns the path of r's request target as the client sent it, still
// percent-encoded: the canonicalized resource is built from it. It falls back to the
// parsed URL when the server did not keep the request target.
func PathAsSent(r *exchange.Request) string {
	uri := r.RequestURI
	if uri == "" || uri == "*" {
		return r.URL.EscapedPath()
	}
	if i := strings.IndexByte(uri, '?'); i >= 0 {
		uri = uri[:i]
	}
	if !strings.HasPrefix(uri, "/") { // absolute form: scheme://host/path
		if i := strings.Index(uri, "://"); i >= 0 {
			uri = uri[i+3:]
		}
		i := strings.IndexByte(uri, '/')
		if i < 0 {
			return "/"
		}
		uri = uri[i:]
	}
	return uri
}

// resourceParts are the parts of the canonicalized resource that vary: the path as sent
// and, when the query has one, the comp parameter (see appendResource).
func (r *Request) resourceParts() (path, comp string, hasComp bool) {
	path = r.CanonicalPath
	if path == "" {
		path = PathAsSent(r.HTTP)
	}
	if path == "" {
		path = "/"
	}
	if v, ok := r.Query["comp"]; ok {
		return path, v[0], true
	}
	return path, "", false
}

// appendResource appends the canonicalized resource to b: "/" + account + path as sent,
// then "?comp=" + comp when the query has comp.
func appendResource(b []byte, account, path, comp string, hasComp bool) []byte {
	b = append(b, '/')
	b = append(b, account...)
	b = append(b, path...)
	if hasComp {
		b = append(b, "?comp="...)
		b = append(b, comp...)
	}
	return b
}
