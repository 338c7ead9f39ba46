package xmldoc

import (
	"io"
	"strconv"
	"unicode/utf8"
)

// xmlWriter builds a document in the byte layout encoding/xml's Marshal gives the same
// structs: no indentation, elements in field order, text escaped as EscapeString escapes it.
type xmlWriter struct{ b []byte }

func newXMLWriter() *xmlWriter { return &xmlWriter{b: append(make([]byte, 0, 512), xmlHeader...)} }

func (x *xmlWriter) open(name string)  { x.b = append(append(append(x.b, '<'), name...), '>') }
func (x *xmlWriter) close(name string) { x.b = append(append(append(x.b, "</"...), name...), '>') }

// leaf writes <name>text</name>.
func (x *xmlWriter) leaf(name, text string) {
	x.open(name)
	x.b = appendEscaped(x.b, text)
	x.close(name)
}

// leafIf writes <name>text</name> unless text is empty (omitempty).
func (x *xmlWriter) leafIf(name, text string) {
	if text != "" {
		x.leaf(name, text)
	}
}

func (x *xmlWriter) leafPtr(name string, s *string) {
	if s != nil {
		x.leaf(name, *s)
	}
}

func (x *xmlWriter) boolPtr(name string, b *bool) {
	if b != nil {
		x.leaf(name, strconv.FormatBool(*b))
	}
}

func (x *xmlWriter) to(w io.Writer) error {
	_, err := w.Write(x.b)
	return err
}

// appendEscaped appends s with the characters XML text cannot hold as they are escaped,
// and characters XML does not allow (or invalid UTF-8) as U+FFFD.
func appendEscaped(b []byte, s string) []byte {
	for i := 0; i < len(s); {
		r, width := utf8.DecodeRuneInString(s[i:])
		switch r {
		case '"':
			b = append(b, "&#34;"...)
		case '\'':
			b = append(b, "&#39;"...)
		case '&':
			b = append(b, "&amp;"...)
		case '<':
			b = append(b, "&lt;"...)
		case '>':
			b = append(b, "&gt;"...)
		case '\t':
			b = append(b, "&#x9;"...)
		case '\n':
			b = append(b, "&#xA;"...)
		case '\r':
			b = append(b, "&#xD;"...)
		default:
			if !inCharacterRange(r) || (r == utf8.RuneError && width == 1) {
				b = append(b, "\uFFFD"...)
			} else {
				b = append(b, s[i:i+width]...)
			}
		}
		i += width
	}
	return b
}

// writeACLDoc writes a <SignedIdentifiers> document.
func writeACLDoc(w io.Writer, doc aclOut) error {
	x := newXMLWriter()
	x.open("SignedIdentifiers")
	for _, it := range doc.Items {
		x.open("SignedIdentifier")
		x.leaf("Id", it.ID)
		x.open("AccessPolicy")
		x.leafIf("Start", it.Policy.Start)
		x.leafIf("Expiry", it.Policy.Expiry)
		x.leafIf("Permission", it.Policy.Permission)
		x.close("AccessPolicy")
		x.close("SignedIdentifier")
	}
	x.close("SignedIdentifiers")
	return x.to(w)
}

// writePropertiesDoc writes a <StorageServiceProperties> document.
func writePropertiesDoc(w io.Writer, doc wireProperties) error {
	x := newXMLWriter()
	x.open("StorageServiceProperties")
	if l := doc.Logging; l != nil {
		x.open("Logging")
		x.leafPtr("Version", l.Version)
		x.boolPtr("Delete", l.Delete)
		x.boolPtr("Read", l.Read)
		x.boolPtr("Write", l.Write)
		x.retention(l.RetentionPolicy)
		x.close("Logging")
	}
	x.metrics("HourMetrics", doc.HourMetrics)
	x.metrics("MinuteMetrics", doc.MinuteMetrics)
	if doc.Cors != nil {
		x.open("Cors")
		for _, r := range doc.Cors.Rules {
			x.open("CorsRule")
			x.leafPtr("AllowedOrigins", r.AllowedOrigins)
			x.leafPtr("AllowedMethods", r.AllowedMethods)
			if r.MaxAgeInSeconds != nil {
				x.leaf("MaxAgeInSeconds", strconv.Itoa(int(*r.MaxAgeInSeconds)))
			}
			x.leafPtr("ExposedHeaders", r.ExposedHeaders)
			x.leafPtr("AllowedHeaders", r.AllowedHeaders)
			x.close("CorsRule")
		}
		x.close("Cors")
	}
	x.close("StorageServiceProperties")
	return x.to(w)
}

func (x *xmlWriter) metrics(name string, m *wireMetrics) {
	if m == nil {
		return
	}
	x.open(name)
	x.leafPtr("Version", m.Version)
	x.boolPtr("Enabled", m.Enabled)
	x.boolPtr("IncludeAPIs", m.IncludeAPIs)
	x.retention(m.RetentionPolicy)
	x.close(name)
}

func (x *xmlWriter) retention(r *wireRetention) {
	if r == nil {
		return
	}
	x.open("RetentionPolicy")
	x.boolPtr("Enabled", r.Enabled)
	if r.Days != nil {
		x.leaf("Days", strconv.Itoa(*r.Days))
	}
	x.close("RetentionPolicy")
}
