package auth

import (
	"strings"
	"time"

	"github.com/tabletopdb/tabletop/core/model"
)

// ParseTime parses a SAS or stored access policy time in one of the ISO 8601 forms Azure
// accepts, returning it in UTC: YYYY-MM-DD (midnight UTC), YYYY-MM-DDThh:mmTZD and
// YYYY-MM-DDThh:mm:ss[.fffffff]TZD, where the zone designator TZD is "Z" or ±hh:mm and
// may not be left out. Anything else is ErrTimeInvalid. The fields are read by core's
// DateTime parser (which also accepts a fraction after hh:mm, and keeps 100 ns).
func ParseTime(s string) (time.Time, error) {
	if d, err := model.ParseEdmDateTime(s + "T00:00Z"); err == nil { // a date alone
		return d.Time(), nil
	}
	if !hasZone(s) {
		return time.Time{}, ErrTimeInvalid
	}
	d, err := model.ParseEdmDateTime(s)
	if err != nil {
		return time.Time{}, ErrTimeInvalid
	}
	return d.Time(), nil
}

// hasZone reports whether an ISO 8601 time ends with a zone designator.
func hasZone(s string) bool {
	return strings.HasSuffix(s, "Z") || len(s) > 6 && (s[len(s)-6] == '+' || s[len(s)-6] == '-')
}

// isDate reports whether s is a date, YYYY-MM-DD, such as a service version.
func isDate(s string) bool {
	_, err := model.ParseEdmDateTime(s + "T00:00Z")
	return err == nil
}
