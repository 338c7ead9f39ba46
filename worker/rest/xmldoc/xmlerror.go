package xmldoc

import (
	"io"
	"time"

	"github.com/tabletopdb/tabletop/worker/rest/exchange"
)

// xmlHeader is the declaration Azure puts before every XML body.
const xmlHeader = `<?xml version="1.0" encoding="utf-8"?>`

// WriteError writes Azure's XML error body,
// <?xml version="1.0" encoding="utf-8"?><Error><Code>…</Code><Message>…</Message></Error>,
// with an <AuthenticationErrorDetail> after the message when detail is not empty.
func WriteError(w io.Writer, code, message, detail string) error {
	x := newXMLWriter()
	x.open("Error")
	x.leaf("Code", code)
	x.leaf("Message", message)
	x.leafIf("AuthenticationErrorDetail", detail)
	x.close("Error")
	return x.to(w)
}

// WriteStats writes the Get Service Stats document: geo-replication is "live" and
// lastSync is given in RFC 1123 form (GMT), as clients parse it.
func WriteStats(w io.Writer, lastSync time.Time) error {
	x := newXMLWriter()
	x.open("StorageServiceStats")
	x.open("GeoReplication")
	x.leaf("Status", "live")
	x.leaf("LastSyncTime", exchange.FormatTime(lastSync))
	x.close("GeoReplication")
	x.close("StorageServiceStats")
	return x.to(w)
}
