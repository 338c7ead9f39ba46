package xmldoc

import (
	"strconv"
	"strings"
)

// The documents' elements are bound to the wire structs as encoding/xml's Unmarshal binds
// them: children by local name, in any order, others ignored; a repeated element
// overwrites a value and fills the same struct again, and appends to a list; a string is
// the element's own character data as it is; a number or a boolean is that data with
// white space trimmed (no data at all is zero or false).

// decodeACL reads a <SignedIdentifiers> document.
func decodeACL(body []byte) (wireACL, error) {
	var doc wireACL
	root, err := rootNamed(body, "SignedIdentifiers")
	if err != nil {
		return doc, err
	}
	for _, c := range root.children {
		if c.name != "SignedIdentifier" {
			continue
		}
		var it wireIdentifier
		for _, f := range c.children {
			switch f.name {
			case "Id":
				it.ID = stringOf(f)
			case "AccessPolicy":
				if it.Policy == nil {
					it.Policy = &wirePolicy{}
				}
				bindPolicy(it.Policy, f)
			}
		}
		doc.Items = append(doc.Items, it)
	}
	return doc, nil
}

func bindPolicy(p *wirePolicy, e *element) {
	for _, f := range e.children {
		switch f.name {
		case "Start":
			p.Start = stringOf(f)
		case "Expiry":
			p.Expiry = stringOf(f)
		case "Permission":
			p.Permission = stringOf(f)
		}
	}
}

// decodeProperties reads a <StorageServiceProperties> document.
func decodeProperties(body []byte) (wireProperties, error) {
	var doc wireProperties
	root, err := rootNamed(body, "StorageServiceProperties")
	if err != nil {
		return doc, err
	}
	for _, c := range root.children {
		switch c.name {
		case "Logging":
			doc.Logging = orNew(doc.Logging)
			err = bindLogging(doc.Logging, c)
		case "HourMetrics":
			doc.HourMetrics = orNew(doc.HourMetrics)
			err = bindMetrics(doc.HourMetrics, c)
		case "MinuteMetrics":
			doc.MinuteMetrics = orNew(doc.MinuteMetrics)
			err = bindMetrics(doc.MinuteMetrics, c)
		case "Cors":
			doc.Cors = orNew(doc.Cors)
			err = bindCors(doc.Cors, c)
		}
		if err != nil {
			return doc, err
		}
	}
	return doc, nil
}

func bindLogging(l *wireLogging, e *element) (err error) {
	for _, f := range e.children {
		switch f.name {
		case "Version":
			l.Version = stringOf(f)
		case "Delete":
			l.Delete, err = boolOf(f)
		case "Read":
			l.Read, err = boolOf(f)
		case "Write":
			l.Write, err = boolOf(f)
		case "RetentionPolicy":
			l.RetentionPolicy = orNew(l.RetentionPolicy)
			err = bindRetention(l.RetentionPolicy, f)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func bindMetrics(m *wireMetrics, e *element) (err error) {
	for _, f := range e.children {
		switch f.name {
		case "Version":
			m.Version = stringOf(f)
		case "Enabled":
			m.Enabled, err = boolOf(f)
		case "IncludeAPIs":
			m.IncludeAPIs, err = boolOf(f)
		case "RetentionPolicy":
			m.RetentionPolicy = orNew(m.RetentionPolicy)
			err = bindRetention(m.RetentionPolicy, f)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func bindRetention(r *wireRetention, e *element) (err error) {
	for _, f := range e.children {
		switch f.name {
		case "Enabled":
			r.Enabled, err = boolOf(f)
		case "Days":
			var n int64
			if n, err = intOf(f, strconv.IntSize); err == nil {
				days := int(n)
				r.Days = &days
			}
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func bindCors(c *wireCors, e *element) error {
	for _, r := range e.children {
		if r.name != "CorsRule" {
			continue
		}
		var rule wireRule
		for _, f := range r.children {
			switch f.name {
			case "AllowedOrigins":
				rule.AllowedOrigins = stringOf(f)
			case "AllowedMethods":
				rule.AllowedMethods = stringOf(f)
			case "ExposedHeaders":
				rule.ExposedHeaders = stringOf(f)
			case "AllowedHeaders":
				rule.AllowedHeaders = stringOf(f)
			case "MaxAgeInSeconds":
				n, err := intOf(f, 32)
				if err != nil {
					return err
				}
				age := int32(n)
				rule.MaxAgeInSeconds = &age
			}
		}
		c.Rules = append(c.Rules, rule)
	}
	return nil
}

// rootNamed parses body and checks the root element's name.
func rootNamed(body []byte, name string) (*element, error) {
	root, err := parseRoot(body)
	if err != nil {
		return nil, err
	}
	if root.name != name {
		return nil, xmlErrorf("expected element type <%s> but have <%s>", name, root.name)
	}
	return root, nil
}

func orNew[T any](p *T) *T {
	if p == nil {
		return new(T)
	}
	return p
}

func stringOf(e *element) *string {
	s := string(e.text)
	return &s
}

func boolOf(e *element) (*bool, error) {
	var b bool
	if len(e.text) > 0 {
		var err error
		if b, err = strconv.ParseBool(strings.TrimSpace(string(e.text))); err != nil {
			return nil, xmlErrorf("<%s>: %v", e.name, err)
		}
	}
	return &b, nil
}

func intOf(e *element, bits int) (int64, error) {
	if len(e.text) == 0 {
		return 0, nil
	}
	n, err := strconv.ParseInt(strings.TrimSpace(string(e.text)), 10, bits)
	if err != nil {
		return 0, xmlErrorf("<%s>: %v", e.name, err)
	}
	return n, nil
}
