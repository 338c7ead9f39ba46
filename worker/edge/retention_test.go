//go:build !js

package main

import (
	"errors"
	"testing"
	"time"
)

func TestParseRetention(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		for v, want := range map[string]time.Duration{"": defaultRetention, "0": 0, "36h": 36 * time.Hour, "90m": 90 * time.Minute} {
			if got, err := parseRetention(v); err != nil || got != want {
				t.Errorf("parseRetention(%q) = %v, %v; want %v", v, got, err, want)
			}
		}
	})
	t.Run("ErrRetentionInvalid", func(t *testing.T) {
		for _, v := range []string{"7d", "-1h", "soon"} {
			if _, err := parseRetention(v); !errors.Is(err, errRetentionInvalid) {
				t.Errorf("parseRetention(%q): err = %v", v, err)
			}
		}
	})
}
