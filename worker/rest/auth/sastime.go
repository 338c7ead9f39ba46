package auth

import "time"

// sasTimeLayouts are the ISO 8601 forms Azure accepts for SAS and stored access policy
// times: YYYY-MM-DD, YYYY-MM-DDThh:mmTZD and YYYY-MM-DDThh:mm:ss[.fffffff]TZD.
var sasTimeLayouts = [...]string{time.RFC3339, "2006-01-02T15:04Z07:00", "2006-01-02"}

// ParseTime parses a SAS or stored access policy time in one of the ISO 8601 forms Azure
// accepts, returning it in UTC; a date alone is midnight UTC. Anything else is
// ErrTimeInvalid.
func ParseTime(s string) (time.Time, error) {
	for _, layout := range sasTimeLayouts {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), nil
		}
	}
	return time.Time{}, ErrTimeInvalid
}
