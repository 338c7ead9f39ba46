package rest

import (
	"errors"
	"unicode/utf8"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/worker/auth"
	"github.com/tabletopdb/tabletop/worker/service"
)

// fail answers err as the service does: the status and code of errorTable, in JSON, or in
// XML for the XML operations.
func (c *call) fail(err error) {
	a := toAPIError(err)
	c.w.Header().Set("x-ms-error-code", a.Code)
	if c.xmlErrors {
		c.w.Header().Set("Content-Type", "application/xml")
		c.w.WriteHeader(a.Status)
		service.WriteAuthError(c.w, a.Code, c.errorMessage(a, ""), authDetail(err))
		return
	}
	c.writeJSON(a.Status, appendErrorJSON(nil, a, c.errorMessage(a, "")))
}

// errorMessage is the message value of an error answer: an optional prefix (the "2:" index
// of a failing batch operation), the message, the request ID and the time.
func (c *call) errorMessage(a apiError, prefix string) string {
	return prefix + a.Message + "\nRequestId:" + c.id + "\nTime:" + core.DateTimeOf(c.now).String()
}

// authDetail returns the AuthenticationErrorDetail of an auth error, if any.
func authDetail(err error) string {
	var ae *auth.AuthError
	if errors.As(err, &ae) {
		return ae.Detail
	}
	return ""
}

// appendErrorJSON appends the odata.error body of an error answer with message msg.
func appendErrorJSON(b []byte, a apiError, msg string) []byte {
	b = append(b, `{"odata.error":{"code":`...)
	b = appendJSONString(b, a.Code)
	b = append(b, `,"message":{"lang":"en-US","value":`...)
	b = appendJSONString(b, msg)
	return append(b, "}}}"...)
}

// appendJSONString appends s as a JSON string literal.
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
		case c == '\n':
			b = append(b, '\\', 'n')
		case c == '\r':
			b = append(b, '\\', 'r')
		case c == '\t':
			b = append(b, '\\', 't')
		case c < 0x20:
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
		case c < utf8.RuneSelf:
			b = append(b, c)
		default:
			r, size := utf8.DecodeRuneInString(s[i:])
			b = utf8.AppendRune(b, r)
			i += size
			continue
		}
		i++
	}
	return append(b, '"')
}
