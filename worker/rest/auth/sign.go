package auth

import "encoding/base64"

// Signing as a client does, by the rules the server checks with (verifySharedKey): the
// copy tool's Azure client and the bench's load generator sign their requests here.

// Signed is what a Shared Key signature covers of a Table service request: its method,
// Content-MD5 and Content-Type (Shared Key only), its date (x-ms-date, else Date), and its
// canonicalized resource, made of the path as sent and the comp query parameter if the
// query has one.
type Signed struct {
	Method, ContentMD5, ContentType string
	Date                            string
	Path                            string // as sent (escaped), without the query; "" means "/"
	Comp                            string
	HasComp                         bool
}

// AppendStringToSign appends to b the string that kind (SharedKey or SharedKeyLite)
// signs for a request s to account: for Shared Key Lite "date\nresource", for Shared Key
// "VERB\nContent-MD5\nContent-Type\ndate\nresource", the resource "/" + account + path
// and then "?comp=" + comp when the query has comp.
func AppendStringToSign(b []byte, kind Kind, account string, s Signed) []byte {
	if kind == SharedKey {
		for _, f := range [...]string{s.Method, s.ContentMD5, s.ContentType} {
			b = append(append(b, f...), '\n')
		}
	}
	b = append(append(b, s.Date...), '\n')
	path := s.Path
	if path == "" {
		path = "/"
	}
	return appendResource(b, account, path, s.Comp, s.HasComp)
}

// AppendAuthorization appends to b the Authorization header's value that signs request s
// to account with key (the account key, decoded): "SharedKey account:signature" or
// "SharedKeyLite account:signature", the signature the base64 HMAC-SHA256 of the string
// to sign.
func AppendAuthorization(b []byte, kind Kind, account string, key []byte, s Signed) []byte {
	sc := scratches.Get().(*scratch)
	defer scratches.Put(sc)
	sc.text = AppendStringToSign(sc.text[:0], kind, account, s)
	m := keyedMAC(key)
	m.Write(sc.text)
	sum := m.Sum(sc.sum[:0])
	releaseMAC(key, m)
	b = append(append(append(b, kind.String()...), ' '), account...)
	return base64.StdEncoding.AppendEncode(append(b, ':'), sum)
}
