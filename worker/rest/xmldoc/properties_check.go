package xmldoc

import (
	"fmt"
	"slices"
	"strings"
)

// properties checks a parsed document and converts it.
func (doc *wireProperties) properties() (*Properties, error) {
	p := &Properties{}
	var err error
	if doc.Logging != nil {
		if p.Logging, err = doc.Logging.logging(); err != nil {
			return nil, fmt.Errorf("Logging: %w", err)
		}
	}
	if doc.HourMetrics != nil {
		if p.HourMetrics, err = doc.HourMetrics.metrics(); err != nil {
			return nil, fmt.Errorf("HourMetrics: %w", err)
		}
	}
	if doc.MinuteMetrics != nil {
		if p.MinuteMetrics, err = doc.MinuteMetrics.metrics(); err != nil {
			return nil, fmt.Errorf("MinuteMetrics: %w", err)
		}
	}
	if doc.Cors != nil {
		if p.Cors, err = doc.Cors.rules(); err != nil {
			return nil, fmt.Errorf("Cors: %w", err)
		}
	}
	return p, nil
}

// missing is the error of a required element that is absent.
func missing(name string) error { return fmt.Errorf("%s is required: %w", name, ErrXMLInvalid) }

func (w *wireLogging) logging() (*Logging, error) {
	switch {
	case w.Version == nil:
		return nil, missing("Version")
	case w.Delete == nil:
		return nil, missing("Delete")
	case w.Read == nil:
		return nil, missing("Read")
	case w.Write == nil:
		return nil, missing("Write")
	case w.RetentionPolicy == nil:
		return nil, missing("RetentionPolicy")
	}
	rp, err := w.RetentionPolicy.policy()
	if err != nil {
		return nil, err
	}
	return &Logging{Version: strings.TrimSpace(*w.Version), Delete: *w.Delete, Read: *w.Read, Write: *w.Write, RetentionPolicy: rp}, nil
}

func (w *wireMetrics) metrics() (*Metrics, error) {
	m := &Metrics{Version: "1.0"}
	if w.Version != nil {
		m.Version = strings.TrimSpace(*w.Version)
	}
	if w.Enabled == nil {
		return nil, missing("Enabled")
	}
	m.Enabled = *w.Enabled
	if m.Enabled && w.IncludeAPIs == nil {
		return nil, missing("IncludeAPIs (metrics are enabled)")
	}
	if m.Enabled {
		m.IncludeAPIs = *w.IncludeAPIs
	}
	if w.RetentionPolicy != nil {
		rp, err := w.RetentionPolicy.policy()
		if err != nil {
			return nil, err
		}
		m.RetentionPolicy = rp
	}
	return m, nil
}

func (w *wireRetention) policy() (RetentionPolicy, error) {
	if w.Enabled == nil {
		return RetentionPolicy{}, missing("RetentionPolicy/Enabled")
	}
	if !*w.Enabled {
		return RetentionPolicy{}, nil
	}
	if w.Days == nil {
		return RetentionPolicy{}, missing("RetentionPolicy/Days (retention is enabled)")
	}
	if *w.Days < 1 || *w.Days > MaxRetentionDays {
		return RetentionPolicy{}, fmt.Errorf("RetentionPolicy/Days %d is not within 1 to %d: %w", *w.Days, MaxRetentionDays, ErrXMLInvalid)
	}
	return RetentionPolicy{Enabled: true, Days: *w.Days}, nil
}

// rules checks the CORS rules; an empty <Cors/> is a list of no rules.
func (w *wireCors) rules() ([]CorsRule, error) {
	if len(w.Rules) > MaxCorsRules {
		return nil, fmt.Errorf("%d CORS rules, at most %d: %w", len(w.Rules), MaxCorsRules, ErrXMLInvalid)
	}
	rules, size := make([]CorsRule, 0, len(w.Rules)), 0
	for i, wr := range w.Rules {
		r, n, err := wr.rule()
		if err != nil {
			return nil, fmt.Errorf("CorsRule %d: %w", i, err)
		}
		rules, size = append(rules, r), size+n
	}
	if size > maxCorsSettingsSize {
		return nil, fmt.Errorf("CORS settings take %d bytes, at most %d: %w", size, maxCorsSettingsSize, ErrXMLInvalid)
	}
	return rules, nil
}

// rule checks one CORS rule and returns it with the size of its values.
func (w wireRule) rule() (CorsRule, int, error) {
	switch {
	case w.AllowedOrigins == nil:
		return CorsRule{}, 0, missing("AllowedOrigins")
	case w.AllowedMethods == nil:
		return CorsRule{}, 0, missing("AllowedMethods")
	case w.AllowedHeaders == nil:
		return CorsRule{}, 0, missing("AllowedHeaders")
	case w.ExposedHeaders == nil:
		return CorsRule{}, 0, missing("ExposedHeaders")
	case w.MaxAgeInSeconds == nil:
		return CorsRule{}, 0, missing("MaxAgeInSeconds")
	case *w.MaxAgeInSeconds < 0:
		return CorsRule{}, 0, fmt.Errorf("MaxAgeInSeconds %d is negative: %w", *w.MaxAgeInSeconds, ErrXMLInvalid)
	}
	r := CorsRule{AllowedOrigins: SplitList(*w.AllowedOrigins), AllowedHeaders: SplitList(*w.AllowedHeaders),
		ExposedHeaders: SplitList(*w.ExposedHeaders), MaxAgeInSeconds: int(*w.MaxAgeInSeconds)}
	for _, m := range SplitList(*w.AllowedMethods) {
		r.AllowedMethods = append(r.AllowedMethods, strings.ToUpper(m))
	}
	size := len(*w.AllowedOrigins) + len(*w.AllowedMethods) + len(*w.AllowedHeaders) + len(*w.ExposedHeaders)
	return r, size, r.check()
}

// check applies the limits on a rule's lists.
func (r CorsRule) check() error {
	if len(r.AllowedOrigins) == 0 || len(r.AllowedMethods) == 0 {
		return fmt.Errorf("AllowedOrigins and AllowedMethods must not be empty: %w", ErrXMLInvalid)
	}
	if len(r.AllowedOrigins) > maxCorsItems {
		return fmt.Errorf("%d allowed origins, at most %d: %w", len(r.AllowedOrigins), maxCorsItems, ErrXMLInvalid)
	}
	for _, o := range r.AllowedOrigins {
		if len(o) > maxCorsItemLength {
			return fmt.Errorf("allowed origin longer than %d characters: %w", maxCorsItemLength, ErrXMLInvalid)
		}
	}
	for _, m := range r.AllowedMethods {
		if !slices.Contains(corsMethods, m) {
			return fmt.Errorf("method %q may not be allowed, only %s: %w", m, strings.Join(corsMethods, ", "), ErrXMLInvalid)
		}
	}
	if err := checkHeaders("AllowedHeaders", r.AllowedHeaders); err != nil {
		return err
	}
	return checkHeaders("ExposedHeaders", r.ExposedHeaders)
}

// checkHeaders applies the limits on a list of literal and prefixed headers.
func checkHeaders(name string, headers []string) error {
	literal, prefixed := 0, 0
	for _, h := range headers {
		if len(h) > maxCorsItemLength {
			return fmt.Errorf("%s: header longer than %d characters: %w", name, maxCorsItemLength, ErrXMLInvalid)
		}
		if strings.HasSuffix(h, "*") {
			prefixed++
		} else {
			literal++
		}
	}
	if literal > maxCorsItems || prefixed > maxCorsPrefixes {
		return fmt.Errorf("%s: %d literal and %d prefixed headers, at most %d and %d: %w",
			name, literal, prefixed, maxCorsItems, maxCorsPrefixes, ErrXMLInvalid)
	}
	return nil
}
