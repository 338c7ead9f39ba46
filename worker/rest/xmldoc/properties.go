package xmldoc

// Properties are the Table service properties of an account. In a parsed Set Service
// Properties body a nil part (or a nil Cors) was not given and keeps its old value; see
// Merge.
type Properties struct {
	Logging       *Logging
	HourMetrics   *Metrics
	MinuteMetrics *Metrics
	Cors          []CorsRule // nil: not given; empty: no rules (CORS disabled)
}

// Logging are the Storage Analytics logging settings.
type Logging struct {
	Version             string
	Delete, Read, Write bool
	RetentionPolicy     RetentionPolicy
}

// Metrics are the Storage Analytics hour or minute metrics settings.
type Metrics struct {
	Version         string
	Enabled         bool
	IncludeAPIs     bool // meaningful only when Enabled
	RetentionPolicy RetentionPolicy
}

// RetentionPolicy says how long analytics data is kept.
type RetentionPolicy struct {
	Enabled bool
	Days    int // 1 to 365, meaningful only when Enabled
}

// CorsRule is one CORS rule: lists are kept split on commas and trimmed.
type CorsRule struct {
	AllowedOrigins  []string // "*", exact origins or subdomain wildcards
	AllowedMethods  []string // upper case
	AllowedHeaders  []string // literal names or prefixes ending in "*"
	ExposedHeaders  []string // literal names or prefixes ending in "*"
	MaxAgeInSeconds int
}

// Limits of the service properties, from Set Table Service Properties.
const (
	MaxCorsRules        = 5
	MaxRetentionDays    = 365
	maxCorsItems        = 64   // origins, or literal headers, per list
	maxCorsPrefixes     = 2    // prefixed headers per list
	maxCorsItemLength   = 256  // characters per origin or header
	maxCorsSettingsSize = 2048 // bytes of all CORS values of a request
)

// corsMethods are the methods a CORS rule may allow.
var corsMethods = []string{"DELETE", "GET", "HEAD", "MERGE", "POST", "OPTIONS", "PUT", "PATCH"}

// DefaultProperties returns what an account that never set its properties has, as Azure
// reports it: analytics version 1.0, all disabled, no CORS rules.
func DefaultProperties() *Properties {
	return &Properties{
		Logging:       &Logging{Version: "1.0"},
		HourMetrics:   &Metrics{Version: "1.0"},
		MinuteMetrics: &Metrics{Version: "1.0"},
		Cors:          []CorsRule{},
	}
}

// Merge returns old with the parts update gives replaced, as Set Service Properties
// does: a part update leaves nil keeps its old value. Either may be nil. The result
// shares the parts it takes from its arguments.
func Merge(old, update *Properties) *Properties {
	out := &Properties{}
	if old != nil {
		*out = *old
	}
	if update == nil {
		return out
	}
	if update.Logging != nil {
		out.Logging = update.Logging
	}
	if update.HourMetrics != nil {
		out.HourMetrics = update.HourMetrics
	}
	if update.MinuteMetrics != nil {
		out.MinuteMetrics = update.MinuteMetrics
	}
	if update.Cors != nil {
		out.Cors = update.Cors
	}
	return out
}
