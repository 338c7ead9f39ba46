package xmldoc

import (
	"slices"
	"strconv"
	"strings"

	"github.com/tabletopdb/tabletop/worker/rest/exchange"
)

// CorsResult is the answer to a preflight request that a CORS rule allows.
type CorsResult struct {
	Rule         *CorsRule // the rule that matched
	AllowOrigin  string    // the request's Origin, echoed
	AllowMethods string    // the requested method, echoed
	AllowHeaders string    // the requested headers, comma-separated ("" for none)
	MaxAge       int       // the rule's MaxAgeInSeconds
}

// Header returns the Access-Control-* headers of the preflight answer (status 200).
func (c *CorsResult) Header() exchange.Header {
	h := exchange.Header{}
	h.Set("Access-Control-Allow-Origin", c.AllowOrigin)
	h.Set("Access-Control-Allow-Methods", c.AllowMethods)
	if c.AllowHeaders != "" {
		h.Set("Access-Control-Allow-Headers", c.AllowHeaders)
	}
	h.Set("Access-Control-Max-Age", strconv.Itoa(c.MaxAge))
	h.Set("Access-Control-Allow-Credentials", "true")
	return h
}

// Preflight evaluates an OPTIONS request: the first rule whose origins and methods
// match is chosen, and all of requestHeaders (split with SplitList) must be allowed by
// it. False means 403 CorsPreflightFailure. A request without Origin or
// Access-Control-Request-Method is the caller's 400 and is refused here too.
func (p *Properties) Preflight(origin, method string, requestHeaders []string) (*CorsResult, bool) {
	if p == nil || origin == "" || method == "" {
		return nil, false
	}
	r, _ := p.match(origin, method)
	if r == nil {
		return nil, false
	}
	for _, h := range requestHeaders {
		if !matchHeader(r.AllowedHeaders, h) {
			return nil, false
		}
	}
	return &CorsResult{Rule: r, AllowOrigin: origin, AllowMethods: method,
		AllowHeaders: strings.Join(requestHeaders, ","), MaxAge: r.MaxAgeInSeconds}, true
}

// ActualRequestHeaders returns the CORS headers to add to the answer of a normal request
// with method and Origin header origin ("" when absent); response is the answer's
// headers, whose names are matched against the rule's prefixed exposed headers. It
// returns nil when there is nothing to add.
func (p *Properties) ActualRequestHeaders(origin, method string, response exchange.Header) exchange.Header {
	if p == nil || len(p.Cors) == 0 {
		return nil
	}
	cacheable := method == exchange.MethodGet || method == exchange.MethodHead
	h := exchange.Header{}
	r, wildcard := p.match(origin, method)
	switch {
	case r != nil && wildcard:
		h.Set("Access-Control-Allow-Origin", "*")
	case r != nil:
		h.Set("Access-Control-Allow-Origin", origin)
		h.Set("Access-Control-Allow-Credentials", "true")
	}
	if r != nil {
		if exposed := exposeHeaders(r.ExposedHeaders, response); exposed != "" {
			h.Set("Access-Control-Expose-Headers", exposed)
		}
	}
	if cacheable && (r == nil || !wildcard) {
		h.Set("Vary", "Origin")
	}
	if len(h) == 0 {
		return nil
	}
	return h
}

// match returns the first rule allowing origin and method, and whether it allowed the
// origin through "*" only. An empty origin matches only "*".
func (p *Properties) match(origin, method string) (*CorsRule, bool) {
	for i := range p.Cors {
		r := &p.Cors[i]
		exact, all := r.matchOrigin(origin)
		if (exact || all) && slices.ContainsFunc(r.AllowedMethods, func(m string) bool { return strings.EqualFold(m, method) }) {
			return r, !exact
		}
	}
	return nil, false
}

// matchOrigin reports whether the rule lists origin exactly or by a subdomain wildcard,
// and whether it allows every origin with "*".
func (r *CorsRule) matchOrigin(origin string) (exact, all bool) {
	for _, o := range r.AllowedOrigins {
		switch {
		case o == "*":
			all = true
		case origin != "" && matchOriginPattern(o, origin):
			exact = true
		}
	}
	return exact, all
}

// matchOriginPattern compares an allowed origin with a request origin, case-insensitively;
// a "*" inside the pattern ("https://*.contoso.com") stands for one or more characters.
func matchOriginPattern(pattern, origin string) bool {
	pattern, origin = strings.ToLower(pattern), strings.ToLower(origin)
	before, after, wild := strings.Cut(pattern, "*")
	if !wild {
		return pattern == origin
	}
	return len(origin) > len(before)+len(after) && strings.HasPrefix(origin, before) && strings.HasSuffix(origin, after)
}

// matchHeader reports whether a header name is in a list of literal names and prefixes
// ending in "*", case-insensitively.
func matchHeader(list []string, name string) bool {
	for _, h := range list {
		if prefix, ok := strings.CutSuffix(h, "*"); ok {
			if len(name) >= len(prefix) && strings.EqualFold(name[:len(prefix)], prefix) {
				return true
			}
		} else if strings.EqualFold(h, name) {
			return true
		}
	}
	return false
}

// exposeHeaders lists the rule's literal exposed headers and the response's header names
// that match its prefixes, each once, comma-separated.
func exposeHeaders(rule []string, response exchange.Header) string {
	var out []string
	add := func(name string) {
		if !slices.ContainsFunc(out, func(o string) bool { return strings.EqualFold(o, name) }) {
			out = append(out, name)
		}
	}
	for _, h := range rule {
		if !strings.HasSuffix(h, "*") {
			add(h)
		}
	}
	names := make([]string, 0, len(response))
	for name := range response {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		if matchHeader(rule, name) {
			add(name)
		}
	}
	return strings.Join(out, ",")
}
