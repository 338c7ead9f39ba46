package xmldoc

import (
	"fmt"
	"io"
	"strings"
)

// The <StorageServiceProperties> document. Pointers tell absent elements from given
// ones when reading, and leave out elements when writing.
type wireProperties struct {
	Logging       *wireLogging `xml:"Logging"`
	HourMetrics   *wireMetrics `xml:"HourMetrics"`
	MinuteMetrics *wireMetrics `xml:"MinuteMetrics"`
	Cors          *wireCors    `xml:"Cors"`
}

type wireLogging struct {
	Version         *string        `xml:"Version"`
	Delete          *bool          `xml:"Delete"`
	Read            *bool          `xml:"Read"`
	Write           *bool          `xml:"Write"`
	RetentionPolicy *wireRetention `xml:"RetentionPolicy"`
}

type wireMetrics struct {
	Version         *string        `xml:"Version"`
	Enabled         *bool          `xml:"Enabled"`
	IncludeAPIs     *bool          `xml:"IncludeAPIs"`
	RetentionPolicy *wireRetention `xml:"RetentionPolicy"`
}

type wireRetention struct {
	Enabled *bool `xml:"Enabled"`
	Days    *int  `xml:"Days"`
}

type wireCors struct {
	Rules []wireRule `xml:"CorsRule"`
}

type wireRule struct {
	AllowedOrigins  *string `xml:"AllowedOrigins"`
	AllowedMethods  *string `xml:"AllowedMethods"`
	MaxAgeInSeconds *int32  `xml:"MaxAgeInSeconds"`
	ExposedHeaders  *string `xml:"ExposedHeaders"`
	AllowedHeaders  *string `xml:"AllowedHeaders"`
}

// ParseProperties reads a Set Service Properties body and checks it against Azure's
// rules. Parts the body leaves out are nil in the result.
func ParseProperties(r io.Reader) (*Properties, error) {
	body, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("read service properties: %w", err)
	}
	doc, err := decodeProperties(body)
	if err != nil {
		return nil, fmt.Errorf("parse service properties: %v: %w", err, ErrXMLInvalid)
	}
	p, err := doc.properties()
	if err != nil {
		return nil, fmt.Errorf("parse service properties: %w", err)
	}
	return p, nil
}

// WriteProperties writes a Get Service Properties body with the XML declaration. Nil
// parts are left out: write Merge(DefaultProperties(), stored) to answer a GET.
func WriteProperties(w io.Writer, p *Properties) error {
	doc := wireProperties{}
	if p.Logging != nil {
		l := p.Logging
		doc.Logging = &wireLogging{Version: &l.Version, Delete: &l.Delete, Read: &l.Read, Write: &l.Write,
			RetentionPolicy: wireRetentionOf(l.RetentionPolicy)}
	}
	doc.HourMetrics = wireMetricsOf(p.HourMetrics)
	doc.MinuteMetrics = wireMetricsOf(p.MinuteMetrics)
	if p.Cors != nil {
		doc.Cors = &wireCors{Rules: make([]wireRule, len(p.Cors))}
		for i, c := range p.Cors {
			doc.Cors.Rules[i] = wireRuleOf(c)
		}
	}
	return writePropertiesDoc(w, doc)
}

func wireMetricsOf(m *Metrics) *wireMetrics {
	if m == nil {
		return nil
	}
	w := &wireMetrics{Version: &m.Version, Enabled: &m.Enabled, RetentionPolicy: wireRetentionOf(m.RetentionPolicy)}
	if m.Enabled {
		w.IncludeAPIs = &m.IncludeAPIs
	}
	return w
}

func wireRetentionOf(r RetentionPolicy) *wireRetention {
	w := &wireRetention{Enabled: &r.Enabled}
	if r.Enabled {
		w.Days = &r.Days
	}
	return w
}

func wireRuleOf(c CorsRule) wireRule {
	str := func(s []string) *string { j := strings.Join(s, ","); return &j }
	age := int32(c.MaxAgeInSeconds)
	return wireRule{AllowedOrigins: str(c.AllowedOrigins), AllowedMethods: str(c.AllowedMethods),
		MaxAgeInSeconds: &age, ExposedHeaders: str(c.ExposedHeaders), AllowedHeaders: str(c.AllowedHeaders)}
}

// SplitList splits a comma-separated list (of origins, methods or headers, or the value
// of Access-Control-Request-Headers), trimming spaces and dropping empty items.
func SplitList(s string) []string {
	var out []string
	for item := range strings.SplitSeq(s, ",") {
		if item = strings.TrimSpace(item); item != "" {
			out = append(out, item)
		}
	}
	return out
}
