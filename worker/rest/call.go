package rest

import (
	"sync/atomic"
	"time"

	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/core/wire"
	"github.com/tabletopdb/tabletop/worker/rest/auth"
	"github.com/tabletopdb/tabletop/worker/rest/exchange"
	"github.com/tabletopdb/tabletop/worker/rest/uri"
)

// DefaultVersion is the x-ms-version answered when a request names none.
const DefaultVersion = "2019-02-02"

// call is the state of one request as it is served.
type call struct {
	h    *Handler
	w    exchange.ResponseWriter
	r    *exchange.Request
	id   string    // x-ms-request-id
	now  time.Time // when the request arrived
	acct *Account
	// secondary is set when the request names the account's secondary location, which
	// serves reads only.
	secondary bool
	base      string // scheme, host and (path style) account: the base of odata.metadata
	res       resource
	// query is the request's query string, parsed once.
	query uri.Values
	// method is the operation's method: the request's, or the one X-HTTP-Method tunnels.
	method string

	meta      wire.Metadata // the JSON metadata level of the response
	xmlErrors bool          // errors are answered in XML (ACL and service operations)
	principal *auth.Principal

	held     int64 // bytes of body memory reserved from the Handler's budget
	bodyRead bool  // the body was read to its end

	// values holds the values of the headers most answers have (newCall's, then a single
	// write's: answerWrite's), each header's slice a piece of it: they come with the call
	// rather than in allocations of their own.
	values [10]string
}

// newCall starts serving r: it issues the request ID and sets the headers every response has.
func (h *Handler) newCall(w exchange.ResponseWriter, r *exchange.Request) *call {
	c := &call{h: h, w: w, r: r, id: newRequestID(), now: h.now(), meta: wire.MinimalMetadata}
	version := DefaultVersion
	if c.checkVersion() == nil {
		version = orDefault(r.Header.Get("x-ms-version"), DefaultVersion)
	}
	v := c.values[:5]
	v[0], v[1], v[2], v[3], v[4] = c.id, version, httpDate(c.now), "no-cache", "nosniff"
	hd := w.Header()
	hd["X-Ms-Request-Id"] = v[0:1:1]
	hd["X-Ms-Version"] = v[1:2:2]
	hd["Date"] = v[2:3:3]
	hd["Cache-Control"] = v[3:4:4]
	hd["X-Content-Type-Options"] = v[4:5:5]
	if id := r.Header.Get("x-ms-client-request-id"); id != "" {
		hd.Set("x-ms-client-request-id", id)
	}
	return c
}

// lastDate is the Date header last formatted, with its second: requests in the same
// second share it.
var lastDate atomic.Pointer[datedText]

type datedText struct {
	unix int64
	text string
}

// httpDate is t in the form of the Date header (exchange.TimeFormat), formatted once per
// second.
func httpDate(t time.Time) string {
	sec := t.Unix()
	if d := lastDate.Load(); d != nil && d.unix == sec {
		return d.text
	}
	d := &datedText{unix: sec, text: exchange.FormatTime(t)}
	lastDate.Store(d)
	return d.text
}

// newRequestID returns a random UUID (version 4) in text form.
func newRequestID() string { return model.NewGuid().String() }

func orDefaultInt(n, def int64) int64 {
	if n <= 0 {
		return def
	}
	return n
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// writeJSON answers status with a JSON body at the call's metadata level.
func (c *call) writeJSON(status int, body []byte) {
	c.w.Header().Set("Content-Type", c.meta.ContentType())
	c.w.WriteHeader(status)
	c.w.Write(body)
}

// writeXML answers status with an XML body.
func (c *call) writeXML(status int, body []byte) {
	c.w.Header().Set("Content-Type", "application/xml")
	c.w.WriteHeader(status)
	c.w.Write(body)
}

// writeRaw answers status with body, whose Content-Type is set already if there is one.
func (c *call) writeRaw(status int, body []byte) {
	c.w.WriteHeader(status)
	if len(body) > 0 {
		c.w.Write(body)
	}
}

// noContent answers 204 (or another status) with no body.
func (c *call) noContent(status int) {
	c.w.WriteHeader(status)
}
