package uri

import (
	"errors"
	"strconv"
	"strings"
)

// URL is a parsed request target: the parts of net/url's URL the REST layer reads.
type URL struct {
	// Scheme is the scheme in lower case, "" for a path.
	Scheme string
	// Opaque is what follows "scheme:" when no "/" does (as in "urn:x"); such a URL has
	// no host and no path.
	Opaque string
	// Host is "host" or "host:port", unescaped.
	Host string
	// Path is the path, unescaped.
	Path string
	// RawPath is the path as sent, still escaped, when that is not Path's default
	// escaping ("" otherwise: EscapedPath then escapes Path).
	RawPath string
	// RawQuery is the query as sent, without its "?".
	RawQuery string
	// ForceQuery is set when the target ends in a "?" with no query after it.
	ForceQuery bool
}

// Error is a failed parse, worded as net/url's Error: `parse "target": reason`.
type Error struct {
	URL string
	Err error
}

// Error is `parse "target": reason`.
func (e *Error) Error() string { return "parse " + strconv.Quote(e.URL) + ": " + e.Err.Error() }

// Unwrap is the reason.
func (e *Error) Unwrap() error { return e.Err }

// Parse parses an absolute or relative URL as url.Parse does (the fragment after "#" is
// checked and dropped).
func Parse(raw string) (*URL, error) {
	s, frag, _ := strings.Cut(raw, "#")
	u, err := parse(s, false)
	if err != nil {
		return nil, &Error{s, err}
	}
	if err := checkEscapes(frag, false); err != nil {
		return nil, &Error{raw, err}
	}
	return u, nil
}

// ParseRequestURI parses a request target, an absolute URL or an absolute path, as
// url.ParseRequestURI does.
func ParseRequestURI(raw string) (*URL, error) {
	u, err := parse(raw, true)
	if err != nil {
		return nil, &Error{raw, err}
	}
	return u, nil
}

// EscapedPath is the path as sent when that is a valid escaping of it, else Path
// escaped, as url.URL's EscapedPath.
func (u *URL) EscapedPath() string {
	if u.RawPath != "" && validEncodedPath(u.RawPath) && checkEscapes(u.RawPath, false) == nil &&
		decode(u.RawPath, false) == u.Path {
		return u.RawPath
	}
	if u.Path == "*" {
		return "*"
	}
	return escapePath(u.Path)
}

// RequestURI is the escaped path (or the opaque part) and the query, as url.URL's
// RequestURI.
func (u *URL) RequestURI() string {
	s := u.Opaque
	if s == "" {
		if s = u.EscapedPath(); s == "" {
			s = "/"
		}
	} else if strings.HasPrefix(s, "//") {
		s = u.Scheme + ":" + s
	}
	if u.ForceQuery || u.RawQuery != "" {
		s += "?" + u.RawQuery
	}
	return s
}

// parse parses raw (without fragment); a request target (viaRequest) must be absolute.
func parse(raw string, viaRequest bool) (*URL, error) {
	if strings.ContainsFunc(raw, func(r rune) bool { return r < ' ' || r == 0x7f }) {
		return nil, errors.New("net/url: invalid control character in URL")
	}
	if raw == "" && viaRequest {
		return nil, errors.New("empty url")
	}
	u := &URL{}
	if raw == "*" {
		u.Path = "*"
		return u, nil
	}
	scheme, rest, err := splitScheme(raw)
	if err != nil {
		return nil, err
	}
	u.Scheme = strings.ToLower(scheme)
	if strings.HasSuffix(rest, "?") && strings.Count(rest, "?") == 1 {
		u.ForceQuery, rest = true, rest[:len(rest)-1]
	} else {
		rest, u.RawQuery, _ = strings.Cut(rest, "?")
	}
	if !strings.HasPrefix(rest, "/") {
		if u.Scheme != "" {
			u.Opaque = rest
			return u, nil
		}
		if viaRequest {
			return nil, errors.New("invalid URI for request")
		}
		if segment, _, _ := strings.Cut(rest, "/"); strings.Contains(segment, ":") {
			return nil, errors.New("first path segment in URL cannot contain colon")
		}
	}
	if (u.Scheme != "" || !viaRequest && !strings.HasPrefix(rest, "///")) && strings.HasPrefix(rest, "//") {
		authority := rest[2:]
		rest = ""
		if i := strings.IndexByte(authority, '/'); i >= 0 {
			authority, rest = authority[:i], authority[i:]
		}
		if u.Host, err = parseAuthority(u.Scheme, authority); err != nil {
			return nil, err
		}
	}
	if err := checkEscapes(rest, false); err != nil {
		return nil, err
	}
	// RawPath is kept only when the path was not sent in its default escaping, as
	// net/url's setPath does (EscapedPath of "%2A" is then "*", of "%2a" "%2a").
	if u.Path = decode(rest, false); escapePath(u.Path) != rest {
		u.RawPath = rest
	}
	return u, nil
}

// splitScheme splits "scheme:rest"; a target that does not start with a scheme is all
// rest.
func splitScheme(raw string) (scheme, rest string, err error) {
	for i := 0; i < len(raw); i++ {
		switch c := raw[i]; {
		case 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z':
		case '0' <= c && c <= '9' || c == '+' || c == '-' || c == '.':
			if i == 0 {
				return "", raw, nil
			}
		case c == ':':
			if i == 0 {
				return "", "", errors.New("missing protocol scheme")
			}
			return raw[:i], raw[i+1:], nil
		default:
			return "", raw, nil
		}
	}
	return "", raw, nil
}

// parseAuthority checks "userinfo@host:port" and returns its host and port, unescaped.
func parseAuthority(scheme, authority string) (string, error) {
	i := strings.LastIndexByte(authority, '@')
	host, err := parseHost(scheme, authority[i+1:])
	if err != nil || i < 0 {
		return host, err
	}
	userinfo := authority[:i]
	for j := 0; j < len(userinfo); j++ {
		if c := userinfo[j]; !alnum(c) && !isAny(c, "-._:~!$&'()*+,;=%@") {
			return "", errors.New("net/url: invalid userinfo")
		}
	}
	user, password, _ := strings.Cut(userinfo, ":")
	if err := checkEscapes(user, false); err != nil {
		return "", err
	}
	if err := checkEscapes(password, false); err != nil {
		return "", err
	}
	return host, nil
}
