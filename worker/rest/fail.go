package rest

import (
	"errors"

	"github.com/tabletopdb/tabletop/core/azerr"
	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/core/wire"
	"github.com/tabletopdb/tabletop/worker/rest/auth"
	"github.com/tabletopdb/tabletop/worker/rest/xmldoc"
)

// fail answers err as the service does: the status and code azerr chooses, in JSON, or in
// XML for the XML operations; a refused bearer token with its challenge.
func (c *call) fail(err error) {
	a := c.answerOf(err)
	c.w.Header().Set("x-ms-error-code", a.Code)
	if ch := authChallenge(err); ch != "" {
		c.w.Header().Set("WWW-Authenticate", ch)
	}
	if !c.bodyRead && c.r.ContentLength != 0 {
		// Answer at once: net/http would first wait for a body left unread, which a
		// request refused before its body (such as one that fails authentication) may
		// never send.
		c.bodyFailed(nil)
	}
	if c.xmlErrors {
		c.w.Header().Set("Content-Type", "application/xml")
		c.w.WriteHeader(a.Status)
		xmldoc.WriteError(c.w, a.Code, c.errorMessage(a, ""), authDetail(err))
		return
	}
	c.writeJSON(a.Status, appendErrorJSON(nil, a, c.errorMessage(a, "")))
}

// errorMessage is the message value of an error answer: an optional prefix (the "2:" index
// of a failing batch operation), the message, the request ID and the time.
func (c *call) errorMessage(a azerr.Answer, prefix string) string {
	return prefix + a.Message + "\nRequestId:" + c.id + "\nTime:" + model.DateTimeOf(c.now).String()
}

// authDetail returns the AuthenticationErrorDetail of an auth error, if any.
func authDetail(err error) string {
	var ae *auth.AuthError
	if errors.As(err, &ae) {
		return ae.Detail
	}
	return ""
}

// authChallenge returns the WWW-Authenticate value of an auth error, if any.
func authChallenge(err error) string {
	var ae *auth.AuthError
	if errors.As(err, &ae) {
		return ae.Challenge
	}
	return ""
}

// appendErrorJSON appends the odata.error body of an error answer with message msg.
func appendErrorJSON(b []byte, a azerr.Answer, msg string) []byte {
	b = append(b, `{"odata.error":{"code":`...)
	b = wire.AppendString(b, a.Code)
	b = append(b, `,"message":{"lang":"en-US","value":`...)
	b = wire.AppendString(b, msg)
	return append(b, "}}}"...)
}
