package auth

import (
	"strings"
	"time"

	"github.com/tabletopdb/tabletop/worker/rest/exchange"
	"github.com/tabletopdb/tabletop/worker/rest/uri"
)

// sasFields are the query parameters of a shared access signature, URL-decoded.
type sasFields struct {
	sv, sp, st, se, sip, spr, si, sig string
	tn, spk, srk, epk, erk            string // table SAS
	ss, srt, ses                      string // account SAS
}

// readSAS takes the SAS parameters from a query.
func readSAS(q uri.Values) sasFields {
	return sasFields{
		sv: q.Get("sv"), sp: q.Get("sp"), st: q.Get("st"), se: q.Get("se"),
		sip: q.Get("sip"), spr: q.Get("spr"), si: q.Get("si"),
		// A '+' sent unencoded arrives as a space; a signature never holds one.
		sig: strings.ReplaceAll(q.Get("sig"), " ", "+"),
		tn:  q.Get("tn"), spk: q.Get("spk"), srk: q.Get("srk"), epk: q.Get("epk"), erk: q.Get("erk"),
		ss: q.Get("ss"), srt: q.Get("srt"), ses: q.Get("ses"),
	}
}

// verifySAS checks a table SAS or an account SAS.
func verifySAS(r *Request, f sasFields) (*Principal, error) {
	if !isDate(f.sv) { // a service version, YYYY-MM-DD
		return nil, notWellFormed("The signed version (sv) '" + f.sv + "' is missing or not a version.")
	}
	switch {
	case f.ss != "" || f.srt != "":
		return verifyAccountSAS(r, f)
	case f.tn != "":
		return verifyTableSAS(r, f)
	}
	return nil, notWellFormed("A shared access signature needs tn (table SAS) or ss and srt (account SAS).")
}

// checkConstraints checks a SAS's time window, protocol and source address.
func checkConstraints(r *Request, start, expiry, spr, sip string) error {
	if err := checkWindow(r.now(), start, expiry); err != nil {
		return err
	}
	if err := checkProtocol(spr, r.Secure); err != nil {
		return err
	}
	return checkIP(sip, r.ClientIP)
}

// checkWindow checks that now lies within [start, expiry]; start may be empty.
func checkWindow(now time.Time, start, expiry string) error {
	if expiry == "" {
		return notWellFormed("The signed expiry (se) is missing.")
	}
	se, err := ParseTime(expiry)
	if err != nil {
		return notWellFormed("The signed expiry '" + expiry + "' is not an ISO 8601 time.")
	}
	st := time.Time{}
	if start != "" {
		if st, err = ParseTime(start); err != nil {
			return notWellFormed("The signed start '" + start + "' is not an ISO 8601 time.")
		}
	}
	if now.After(se) || now.Before(st) {
		return authFailed("Signature not valid in the specified time frame: Start [" + httpTime(st) +
			"] - Expiry [" + httpTime(se) + "] - Current [" + httpTime(now) + "]")
	}
	return nil
}

// httpTime formats t as Azure does in messages, RFC 1123 in GMT ("" for the zero time).
func httpTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return exchange.FormatTime(t)
}

// checkProtocol checks spr: "https" needs a secure request; "https,http" (or none)
// allows both. HTTP alone is not a permitted value.
func checkProtocol(spr string, secure bool) error {
	switch spr {
	case "", "https,http", "http,https":
		return nil
	case "https":
		if secure {
			return nil
		}
		return fail(ErrProtocolMismatch, "")
	}
	return notWellFormed("The signed protocol (spr) '" + spr + "' is not 'https' or 'https,http'.")
}

// checkIP checks that ip is the address sip names, or lies in its inclusive range "a-b".
func checkIP(sip string, ip uri.Addr) error {
	if sip == "" {
		return nil
	}
	ip = ip.Unmap() // an IPv4-mapped IPv6 address is its IPv4 address
	lo, hi, ok := parseIPRange(sip)
	if !ok {
		return notWellFormed("The signed IP (sip) '" + sip + "' is not an address or a range.")
	}
	if !ipInRange(ip, lo, hi) {
		return fail(ErrSourceIPMismatch, ipText(ip))
	}
	return nil
}

// parseIP parses an IPv4 or IPv6 address without a zone; an IPv4-mapped IPv6 address is
// its IPv4 address.
func parseIP(s string) (uri.Addr, bool) {
	a, err := uri.ParseAddr(s)
	if err != nil || a.Zone() != "" {
		return uri.Addr{}, false
	}
	return a.Unmap(), true
}

// ipText is ip as the answer names it, "<nil>" when the client's address is unknown.
func ipText(ip uri.Addr) string {
	if !ip.IsValid() {
		return "<nil>"
	}
	return ip.String()
}

// parseIPRange parses "a" or "a-b" into its inclusive bounds.
func parseIPRange(sip string) (uri.Addr, uri.Addr, bool) {
	a, b, isRange := strings.Cut(sip, "-")
	lo, ok := parseIP(strings.TrimSpace(a))
	hi, okHi := lo, ok
	if isRange {
		hi, okHi = parseIP(strings.TrimSpace(b))
	}
	if !ok || !okHi || lo.Is4() != hi.Is4() {
		return uri.Addr{}, uri.Addr{}, false
	}
	return lo, hi, true
}

// ipInRange reports whether ip lies in [lo, hi], comparing addresses of one family.
func ipInRange(ip, lo, hi uri.Addr) bool {
	if !ip.IsValid() || ip.Is4() != lo.Is4() {
		return false
	}
	return ip.Compare(lo) >= 0 && ip.Compare(hi) <= 0
}

// parseLetters returns the permissions of a SAS permission string: each letter must be
// in known, at most once. Letters of other services in known are accepted and ignored.
func parseLetters(s, known string) (Permission, bool) {
	var p Permission
	seen := ""
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !strings.ContainsRune(known, rune(c)) || strings.IndexByte(seen, c) >= 0 {
			return 0, false
		}
		seen += string(c)
		for _, l := range permissionLetters {
			if l.letter == c {
				p |= l.perm
			}
		}
	}
	return p, true
}
