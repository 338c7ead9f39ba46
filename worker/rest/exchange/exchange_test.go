package exchange

import (
	"errors"
	"net/http"
	"net/textproto"
	"reflect"
	"strings"
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
	for _, name := range []string{"x-ms-date", "ETAG", "Content-Type", "a--b", "-x", "x y", "ü-a", "", "DataServiceVersion", "x_ms", strings.Repeat("ab-", 30)} {
		if got, want := CanonicalKey(name), textproto.CanonicalMIMEHeaderKey(name); got != want {
			t.Errorf("CanonicalKey(%q) = %q, net/textproto says %q", name, got, want)
		}
	}
}

// TestIsTokenByte checks every byte against RFC 9110's tchar: "!" / "#" / "$" / "%" /
// "&" / "'" / "*" / "+" / "-" / "." / "^" / "_" / "`" / "|" / "~" / DIGIT / ALPHA.
func TestIsTokenByte(t *testing.T) {
	for c := 0; c < 256; c++ {
		b := byte(c)
		want := 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || '0' <= b && b <= '9' ||
			b != 0 && strings.IndexByte("!#$%&'*+-.^_`|~", b) >= 0
		if got := IsTokenByte(b); got != want {
			t.Errorf("IsTokenByte(%#x) = %v, want %v", c, got, want)
		}
	}
}

// TestCanonicalKey_Allocs spells the service's own names otherwise than canonically, as
// Azure's documentation does, without allocating.
func TestCanonicalKey_Allocs(t *testing.T) {
	for _, name := range []string{"x-ms-version", "x-ms-date", "ETag", "DataServiceVersion", "X-HTTP-Method", "x-ms-continuation-NextRowKey"} {
		if n := testing.AllocsPerRun(100, func() { CanonicalKey(name) }); n != 0 {
			t.Errorf("CanonicalKey(%q): %v allocations", name, n)
		}
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
	t.Run("OK/EveryLayout", func(t *testing.T) {
		// Every day of a leap year and a year of each century the RFC 850 form reaches, at
		// times that reach each field's bounds, in the three layouts.
		for _, year := range []int{1969, 1999, 2000, 2024, 2068} {
			for day := time.Date(year, 1, 1, 0, 0, 0, 0, time.UTC); day.Year() == year; day = day.AddDate(0, 0, 1) {
				at := day.Add(time.Duration(day.YearDay()%24)*time.Hour + 59*time.Minute + time.Duration(day.Day()%60)*time.Second)
				for _, layout := range []string{TimeFormat, "Monday, 02-Jan-06 15:04:05 GMT", time.ANSIC} {
					text := at.Format(layout)
					if got, err := ParseTime(text); err != nil || !got.Equal(at) {
						t.Fatalf("ParseTime(%q) = %v, %v; want %v", text, got, err, at)
					}
				}
			}
		}
	})
	t.Run("ErrTimeInvalid", func(t *testing.T) {
		for _, s := range []string{
			"22 Nov 2026", "", "Sat, 31 Nov 2026 10:00:00 GMT", "Sat, 22 Nov 2026 24:00:00 GMT",
			"Sat, 22 Nov 2026 10:60:00 GMT", "Sat, 22 Nov 2026 10:00:60 GMT", "Sat, 22 Nov 2026 10:00:00 UTC",
			"Sat, 22 Nov 2026 10:00:00 GMT ", "Sat, 29 Feb 2026 10:00:00 GMT", "Sat, 22 Xyz 2026 10:00:00 GMT",
			"Sat Nov 22 10:00:00 26", "Saturday, 22-Nov-2026 10:00:00 GMT", "Sat,22 Nov 2026 10:00:00 GMT",
		} {
			if _, err := ParseTime(s); !errors.Is(err, ErrTimeInvalid) {
				t.Errorf("ParseTime(%q) = %v, want ErrTimeInvalid", s, err)
			}
		}
	})
}

// FuzzParseTime holds ParseTime to net/http's: every text it accepts, net/http reads as
// the same instant.
func FuzzParseTime(f *testing.F) {
	for _, s := range []string{"Sat, 22 Nov 2026 10:00:00 GMT", "Saturday, 22-Nov-26 10:00:00 GMT", "Sat Nov 22 10:00:00 2026", "Sun Nov  6 08:49:37 1994", "Sat, 29 Feb 2024 23:59:59 GMT"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := ParseTime(s)
		if err != nil {
			return
		}
		if want, werr := http.ParseTime(s); werr != nil || !got.Equal(want) {
			t.Fatalf("ParseTime(%q) = %v; net/http says %v, %v", s, got, want, werr)
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

func TestAppendTime(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		for _, at := range []time.Time{
			time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC),
			time.Date(1994, 11, 6, 8, 49, 37, 999999999, time.FixedZone("x", -5*3600)),
			time.Date(2024, 2, 29, 23, 59, 59, 0, time.UTC),
			time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC),
			time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC),
			time.Date(-1, 3, 4, 5, 6, 7, 0, time.UTC),
			time.Date(12345, 6, 7, 8, 9, 10, 0, time.UTC),
			{},
		} {
			if got, want := FormatTime(at), at.UTC().Format(http.TimeFormat); got != want {
				t.Errorf("FormatTime(%v) = %q, want %q", at, got, want)
			}
		}
		if got := string(AppendTime([]byte("Date: "), time.Unix(0, 0))); got != "Date: Thu, 01 Jan 1970 00:00:00 GMT" {
			t.Errorf("AppendTime appends %q", got)
		}
	})
	t.Run("OK/EveryDay", func(t *testing.T) {
		for at := time.Date(1999, 1, 1, 0, 0, 0, 0, time.UTC); at.Year() < 2031; at = at.Add(25*time.Hour + 61*time.Second) {
			if got, want := FormatTime(at), at.Format(http.TimeFormat); got != want {
				t.Fatalf("FormatTime(%v) = %q, want %q", at, got, want)
			}
		}
	})
}

// FuzzAppendTime holds AppendTime to time.Format(http.TimeFormat) on any instant, and its
// HTTP dates to ParseTime.
func FuzzAppendTime(f *testing.F) {
	f.Add(int64(0), int64(0))
	f.Add(int64(1795000000), int64(999999999))
	f.Add(int64(-62135596800), int64(0))
	f.Add(int64(253402300799), int64(1))
	f.Fuzz(func(t *testing.T, sec, nsec int64) {
		at := time.Unix(sec, nsec)
		got := FormatTime(at)
		if want := at.UTC().Format(http.TimeFormat); got != want {
			t.Fatalf("FormatTime(%d, %d) = %q, want %q", sec, nsec, got, want)
		}
		if y := at.UTC().Year(); y >= 1000 && y <= 9999 {
			if back, err := ParseTime(got); err != nil || !back.Equal(at.Truncate(time.Second)) {
				t.Fatalf("ParseTime(%q) = %v, %v; want %v", got, back, err, at.Truncate(time.Second))
			}
		}
	})
}

// BenchmarkCanonicalKey canonicalizes the names a signed request's headers are read by,
// spelled as the handlers spell them.
func BenchmarkCanonicalKey(b *testing.B) {
	names := []string{"x-ms-version", "x-ms-date", "Authorization", "Content-Type", "Prefer", "Accept", "x-ms-client-request-id", "DataServiceVersion"}
	for b.Loop() {
		for _, n := range names {
			CanonicalKey(n)
		}
	}
}
