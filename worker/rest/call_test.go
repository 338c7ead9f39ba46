package rest

import (
	"net/http"
	"strings"
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

// TestCall_TextOf checks the call's room for header strings: strings taken from it keep
// their text while later ones are built, and a string that does not fit is built and
// kept in an allocation of its own.
func TestCall_TextOf(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		c := &call{}
		a := c.textOf(append(c.textRoom(), "first"...))
		b := c.textOf(append(c.textRoom(), "second"...))
		if a != "first" || b != "second" || c.textUsed != len("firstsecond") {
			t.Errorf("got %q, %q with %d bytes taken", a, b, c.textUsed)
		}
	})
	t.Run("Full", func(t *testing.T) {
		c := &call{}
		long := strings.Repeat("x", textBytes-10)
		a := c.textOf(append(c.textRoom(), long...))
		b := c.textOf(append(c.textRoom(), "more than ten bytes"...)) // reallocated as it grows
		d := c.textOf(append(c.textRoom(), "after"...)) // fits in the room left
		if a != long || b != "more than ten bytes" || d != "after" || c.textUsed != len(long)+len("after") {
			t.Errorf("got %q, %q, %q with %d bytes taken", a, b, d, c.textUsed)
		}
	})
	t.Run("Exact", func(t *testing.T) {
		c := &call{}
		a := c.textOf(append(c.textRoom(), strings.Repeat("y", textBytes)...))
		b := c.textOf(append(c.textRoom(), "z"...))
		if a != strings.Repeat("y", textBytes) || b != "z" || c.textUsed != textBytes || cap(c.textRoom()) != 0 {
			t.Errorf("got %d bytes and %q with %d bytes taken", len(a), b, c.textUsed)
		}
	})
}
