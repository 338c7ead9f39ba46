package main

import (
	"errors"
	"fmt"
	"time"
)

// retentionVar is the Worker variable holding how long deletion records are kept for sync
// clients' change feeds, as a Go duration such as "168h"; "0" keeps none.
const retentionVar = "TABLETOP_DELETION_RETENTION"

// defaultRetention is the retention when retentionVar is unset or empty: seven days, as
// the native server's -retention.
const defaultRetention = 7 * 24 * time.Hour

// errRetentionInvalid means retentionVar is not a duration of zero or more.
var errRetentionInvalid = errors.New("deletion retention must be a duration of zero or more, such as 168h")

// parseRetention parses the value of retentionVar.
func parseRetention(v string) (time.Duration, error) {
	if v == "" {
		return defaultRetention, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("parse %s %q: %w", retentionVar, v, errRetentionInvalid)
	}
	return d, nil
}
