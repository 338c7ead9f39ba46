package wire

import (
	"strconv"
	"strings"
)

// Metadata is the OData JSON metadata level of a response.
type Metadata uint8

// The metadata levels, from least to most.
const (
	NoMetadata Metadata = iota
	MinimalMetadata
	FullMetadata
)

var metadataNames = [...]string{"nometadata", "minimalmetadata", "fullmetadata"}

// String returns the level's parameter value, such as "minimalmetadata".
func (m Metadata) String() string {
	if int(m) < len(metadataNames) {
		return metadataNames[m]
	}
	return "unknown"
}

// ContentType returns the Content-Type Azure sends with a JSON body of this level, such as
// "application/json; odata=minimalmetadata; streaming=true; charset=utf-8".
func (m Metadata) ContentType() string {
	return "application/json; odata=" + m.String() + "; streaming=true; charset=utf-8"
}

// ParseFormat picks the metadata level from an Accept header or a $format value. It
// understands lists of media ranges with parameters and q-values: the acceptable range
// with the highest q wins, the first on a tie. Acceptable are application/json (odata=
// nometadata, minimalmetadata or fullmetadata; OData 4's odata.metadata=none, minimal or
// full; no parameter means minimal), application/*, */* and $format's "json", all minimal
// unless a parameter says otherwise. Anything else (Atom, XML, odata=verbose, an empty
// value) is not acceptable: ok is false and the level is MinimalMetadata, for callers that
// choose to be lenient. Azure answers such requests 415 AtomFormatNotSupported.
func ParseFormat(s string) (m Metadata, ok bool) {
	m, bestQ := MinimalMetadata, 0.0
	for s != "" {
		var item string
		item, s, _ = strings.Cut(s, ",")
		lm, q, acceptable := parseMediaRange(item)
		if acceptable && q > bestQ {
			m, bestQ, ok = lm, q, true
		}
	}
	return m, ok
}

// parseMediaRange parses one media range such as "application/json;odata=nometadata;q=0.5".
func parseMediaRange(item string) (m Metadata, q float64, ok bool) {
	typ, params, _ := strings.Cut(item, ";")
	if !jsonMediaType(strings.TrimSpace(typ)) {
		return 0, 0, false
	}
	m, q, ok = MinimalMetadata, 1, true
	for params != "" && ok {
		var p string
		p, params, _ = strings.Cut(params, ";")
		name, value, _ := strings.Cut(p, "=")
		name, value = strings.TrimSpace(name), strings.Trim(strings.TrimSpace(value), `"`)
		switch {
		case strings.EqualFold(name, "odata"), strings.EqualFold(name, "odata.metadata"):
			m, ok = metadataParam(value)
		case strings.EqualFold(name, "q"):
			var err error
			q, err = strconv.ParseFloat(value, 64)
			ok = err == nil && q >= 0 && q <= 1
		}
	}
	return m, q, ok
}

func jsonMediaType(t string) bool {
	for _, j := range [...]string{"application/json", "application/*", "*/*", "json"} {
		if strings.EqualFold(t, j) {
			return true
		}
	}
	return false
}

// metadataParam reads the value of an odata= or odata.metadata= parameter.
func metadataParam(v string) (Metadata, bool) {
	switch strings.ToLower(v) {
	case "nometadata", "none":
		return NoMetadata, true
	case "minimalmetadata", "minimal":
		return MinimalMetadata, true
	case "fullmetadata", "full":
		return FullMetadata, true
	}
	return MinimalMetadata, false
}
