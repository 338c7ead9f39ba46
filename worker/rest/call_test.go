package rest

import (
	"net/http"
	"testing"
	"time"
)

// TestHTTPDate formats the Date header once per second: every instant gets the text of
// its own second, whatever the order instants come in.
func TestHTTPDate(t *testing.T) {
	base := time.Date(2026, 11, 23, 1, 2, 3, 0, time.FixedZone("X", 3600))
	for _, d := range []time.Duration{0, 999 * time.Millisecond, time.Second, -time.Second, 0, 1500 * time.Millisecond, -24 * time.Hour} {
		at := base.Add(d)
		if got, want := httpDate(at), at.UTC().Format(http.TimeFormat); got != want {
			t.Errorf("httpDate(%v) = %q, want %q", at, got, want)
		}
	}
}
