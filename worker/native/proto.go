//go:build !js

package native

import (
	"strconv"

	"github.com/tabletopdb/tabletop/core/azerr"
	"github.com/tabletopdb/tabletop/core/wire"
	"github.com/tabletopdb/tabletop/worker/rest"
	"github.com/tabletopdb/tabletop/worker/rest/exchange"
)

// refuse answers a request the HTTP layer could not read (http1.Server.Refuse): bad
// framing or headers, an unknown Transfer-Encoding (status 501), headers over the limit
// (431). The answer is the Azure error a client's SDK can read, a JSON odata.error with
// its x-ms-error-code, where net/http's own server answers in plain text; reason follows
// the code's message.
func refuse(w exchange.ResponseWriter, status int, reason string) {
	code := azerr.InvalidInput
	switch status {
	case 431:
		code = azerr.HeadersTooLarge
	case 501:
		code = azerr.UnsupportedHeader
	}
	body := []byte(`{"odata.error":{"code":`)
	body = wire.AppendString(body, code.Name)
	body = append(body, `,"message":{"lang":"en-US","value":`...)
	body = wire.AppendString(body, code.Message+"\n"+reason)
	body = append(body, "}}}"...)
	h := w.Header()
	h.Set("Content-Type", "application/json;odata=minimalmetadata;streaming=true;charset=utf-8")
	h.Set("X-Ms-Error-Code", code.Name)
	h.Set("X-Ms-Version", rest.DefaultVersion)
	h.Set("Content-Length", strconv.Itoa(len(body)))
	h.Set("Connection", "close")
	w.WriteHeader(code.Status)
	w.Write(body)
}
