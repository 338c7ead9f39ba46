package auth

import (
	"strings"

	"github.com/tabletopdb/tabletop/worker/rest/exchange"
)

// verifySharedKey checks an Authorization header of the SharedKey or SharedKeyLite scheme.
func verifySharedKey(r *Request, header string) (*Principal, error) {
	kind, account, sig, err := parseAuthorization(header)
	if err != nil {
		return nil, err
	}
	if account != r.Account.Name {
		return nil, authFailed("The account '" + account + "' in the Authorization header is not the account of the request.")
	}
	date, err := checkDate(r)
	if err != nil {
		return nil, err
	}
	s := scratches.Get().(*scratch)
	defer scratches.Put(s)
	s.text = appendSharedKeyStringToSign(s.text[:0], r, kind, date)
	if !r.Account.matchesText(s, sig) {
		return nil, authFailed("The MAC signature found in the HTTP request '" + sig +
			"' is not the same as any computed signature. Server used following string to sign: '" + string(s.text) + "'.")
	}
	return &Principal{Kind: kind, Account: account}, nil
}

// parseAuthorization splits "SharedKey account:signature" (or SharedKeyLite).
func parseAuthorization(h string) (Kind, string, string, error) {
	scheme, cred, ok := strings.Cut(strings.TrimSpace(h), " ")
	var kind Kind
	switch scheme {
	case "SharedKey":
		kind = SharedKey
	case "SharedKeyLite":
		kind = SharedKeyLite
	default:
		return 0, "", "", authFailed("The authorization scheme '" + scheme + "' is not supported; use SharedKey, SharedKeyLite or a shared access signature.")
	}
	account, sig, ok2 := strings.Cut(strings.TrimSpace(cred), ":")
	if !ok || !ok2 || account == "" || sig == "" {
		return 0, "", "", authFailed("The Authorization header is not of the form '" + scheme + " account:signature'.")
	}
	return kind, account, sig, nil
}

// checkDate returns the request's date text (x-ms-date, else Date) after checking that it
// parses and is within the allowed clock skew.
func checkDate(r *Request) (string, error) {
	text := r.HTTP.Header.Get("x-ms-date")
	if text == "" {
		text = r.HTTP.Header.Get("Date")
	}
	if text == "" {
		return "", authFailed("Request date header not specified (x-ms-date or Date).")
	}
	t, err := exchange.ParseTime(text)
	if err != nil {
		return "", authFailed("The date header '" + text + "' is not a valid RFC 1123 date.")
	}
	skew := r.MaxClockSkew
	if skew == 0 {
		skew = DefaultClockSkew
	}
	if skew < 0 {
		return text, nil
	}
	now := r.now()
	switch {
	case t.Before(now.Add(-skew)):
		return "", authFailed("Request date header too old: '" + text + "'.")
	case t.After(now.Add(skew)):
		return "", authFailed("Request date header too far in the future: '" + text + "'.")
	}
	return text, nil
}

// appendSharedKeyStringToSign appends the string to sign of request r under kind
// (AppendStringToSign) to b; date is the request's date text.
func appendSharedKeyStringToSign(b []byte, r *Request, kind Kind, date string) []byte {
	h := r.HTTP.Header
	path, comp, hasComp := r.resourceParts()
	s := Signed{Date: date, Path: path, Comp: comp, HasComp: hasComp}
	if kind == SharedKey {
		s.Method, s.ContentMD5, s.ContentType = r.HTTP.Method, h.Get("Content-MD5"), h.Get("Content-Type")
	}
	return AppendStringToSign(b, kind, r.Account.Name, s)
}
