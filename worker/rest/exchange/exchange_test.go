package exchange

import (
	"errors"
	"net/http"
	"net/textproto"
	"reflect"
	"testing"
	"time"
)

func TestHeader_Get(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		h := Header{}
		h.Set("x-ms-date", "Sat, 22 Nov 2026 10:00:00 GMT")
		h.Add("accept", "a")
		h.Add("Accept", "b")
		if got := h.Get("X-MS-DATE"); got != "Sat, 22 Nov 2026 10:00:00 GMT" {
			t.Errorf("Get = %q", got)
		}
		if got := h.Values("ACCEPT"); !reflect.DeepEqual(got, []string{"a", "b"}) {
			t.Errorf("Values = %q", got)
		}
		want := http.Header{}
		want.Set("x-ms-date", "Sat, 22 Nov 2026 10:00:00 GMT")
		want.Add("accept", "a")
		want.Add("Accept", "b")
		if !reflect.DeepEqual(map[string][]string(h), map[string][]string(want)) {
			t.Errorf("Header %v, net/http's %v", h, want)
		}
		h.Del("x-MS-date")
		if h.Get("x-ms-date") != "" || len(h) != 1 {
			t.Errorf("after Del: %v", h)
		}
	})
	t.Run("OKMissing", func(t *testing.T) {
		if got := (Header{}).Get("If-Match"); got != "" {
			t.Errorf("Get = %q", got)
		}
		if got := (Header{"If-Match": {}}).Get("If-Match"); got != "" {
			t.Errorf("Get of no values = %q", got)
		}
	})
}

func TestCanonicalKey(t *testing.T) {
	for _, name := range []string{"x-ms-date", "ETAG", "Content-Type", "a--b", "-x", "x y", "ü-a", "", "DataServiceVersion", "x_ms"} {
		if got, want := CanonicalKey(name), textproto.CanonicalMIMEHeaderKey(name); got != want {
			t.Errorf("CanonicalKey(%q) = %q, net/textproto says %q", name, got, want)
		}
	}
}

func FuzzCanonicalKey(f *testing.F) {
	for _, s := range []string{"x-ms-date", "ETAG", "a b", "\x00", "Ab-cD-"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		if got, want := CanonicalKey(name), textproto.CanonicalMIMEHeaderKey(name); got != want {
			t.Fatalf("CanonicalKey(%q) = %q, net/textproto says %q", name, got, want)
		}
	})
}

func TestStatusText(t *testing.T) {
	for status := 100; status < 600; status++ {
		if got, want := StatusText(status), http.StatusText(status); got != want {
			t.Errorf("StatusText(%d) = %q, net/http says %q", status, got, want)
		}
	}
}

func TestParseTime(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		for _, s := range []string{"Sat, 22 Nov 2026 10:00:00 GMT", "Saturday, 22-Nov-26 10:00:00 GMT", "Sat Nov 22 10:00:00 2026"} {
			got, err := ParseTime(s)
			want, _ := http.ParseTime(s)
			if err != nil || !got.Equal(want) || got.IsZero() {
				t.Errorf("ParseTime(%q) = %v, %v; net/http says %v", s, got, err, want)
			}
		}
		if got := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC).Format(TimeFormat); got != "Sun, 22 Nov 2026 10:00:00 GMT" {
			t.Errorf("TimeFormat gives %q", got)
		}
	})
	t.Run("ErrMalformed", func(t *testing.T) {
		if _, err := ParseTime("22 Nov 2026"); err == nil {
			t.Error("ParseTime accepted a malformed date")
		}
	})
}

type deadlineWriter struct {
	ResponseWriter
	got time.Time
}

func (w *deadlineWriter) SetReadDeadline(d time.Time) error { w.got = d; return nil }

type wrapper struct{ ResponseWriter }

func (w wrapper) Unwrap() ResponseWriter { return w.ResponseWriter }

func TestSetReadDeadline(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		host := &deadlineWriter{}
		d := time.Unix(1, 0)
		if err := SetReadDeadline(wrapper{wrapper{host}}, d); err != nil || !host.got.Equal(d) {
			t.Errorf("SetReadDeadline: %v, host got %v", err, host.got)
		}
	})
	t.Run("ErrNotSupported", func(t *testing.T) {
		if err := SetReadDeadline(wrapper{nil}, time.Now()); !errors.Is(err, ErrNotSupported) {
			t.Errorf("SetReadDeadline = %v", err)
		}
	})
}
