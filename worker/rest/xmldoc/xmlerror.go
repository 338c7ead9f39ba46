package xmldoc

import (
	"encoding/xml"
	"io"
	"time"

	"github.com/tabletopdb/tabletop/worker/rest/exchange"
)

// xmlHeader is the declaration Azure puts before every XML body.
const xmlHeader = `<?xml version="1.0" encoding="utf-8"?>`

// writeXML writes the declaration and v marshalled.
func writeXML(w io.Writer, v any) error {
	b, err := xml.Marshal(v)
	if err != nil {
		return err
	}
	if _, err := io.WriteString(w, xmlHeader); err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

// xmlError is the XML error body of the ACL and service operations.
type xmlError struct {
	XMLName xml.Name `xml:"Error"`
	Code    string   `xml:"Code"`
	Message string   `xml:"Message"`
	Detail  string   `xml:"AuthenticationErrorDetail,omitempty"`
}

// WriteError writes Azure's XML error body,
// <?xml version="1.0" encoding="utf-8"?><Error><Code>…</Code><Message>…</Message></Error>,
// with an <AuthenticationErrorDetail> after the message when detail is not empty.
func WriteError(w io.Writer, code, message, detail string) error {
	return writeXML(w, xmlError{Code: code, Message: message, Detail: detail})
}

// stats is the Get Service Stats document.
type stats struct {
	XMLName      xml.Name `xml:"StorageServiceStats"`
	Status       string   `xml:"GeoReplication>Status"`
	LastSyncTime string   `xml:"GeoReplication>LastSyncTime"`
}

// WriteStats writes the Get Service Stats document: geo-replication is "live" and
// lastSync is given in RFC 1123 form (GMT), as clients parse it.
func WriteStats(w io.Writer, lastSync time.Time) error {
	return writeXML(w, stats{Status: "live", LastSyncTime: lastSync.UTC().Format(exchange.TimeFormat)})
}
