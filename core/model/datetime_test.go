package model_test

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/tabletopdb/tabletop/core/model"
)

func TestParseDateTime(t *testing.T) {
	ok := []struct{ in, want string }{
		{"2021-08-31T15:40:49.6724407Z", "2021-08-31T15:40:49.6724407Z"}, // all seven digits kept
		{"2021-08-31T15:40:49.0000001Z", "2021-08-31T15:40:49.0000001Z"},
		{"2021-08-31T15:40:49.672Z", "2021-08-31T15:40:49.6720000Z"}, // milliseconds are not the limit
		{"2021-08-31T15:40:49.5Z", "2021-08-31T15:40:49.5000000Z"},
		{"2021-08-31T15:40:49.67244079Z", "2021-08-31T15:40:49.6724407Z"}, // below 100 ns truncated
		{"2021-08-31T15:40:49Z", "2021-08-31T15:40:49.0000000Z"},
		{"2021-08-31T15:40Z", "2021-08-31T15:40:00.0000000Z"},                 // OData: seconds optional
		{"2021-08-31T15:40:49", "2021-08-31T15:40:49.0000000Z"},               // no zone: UTC
		{"2021-08-31T15:40:49.6724407", "2021-08-31T15:40:49.6724407Z"},       // no zone: UTC
		{"2021-08-31T15:40:49.6724407+02:00", "2021-08-31T13:40:49.6724407Z"}, // offsets convert to UTC
		{"2021-08-31T15:40:49-07:30", "2021-08-31T23:10:49.0000000Z"},         //
		{"2021-08-31T23:30:00-01:00", "2021-09-01T00:30:00.0000000Z"},         // across midnight
		{"2021-08-31T15:40:49+00:00", "2021-08-31T15:40:49.0000000Z"},         //
		{"2024-02-29T00:00:00Z", "2024-02-29T00:00:00.0000000Z"},              // leap day
		{"1601-01-01T00:00:00Z", "1601-01-01T00:00:00.0000000Z"},              // the first DateTime
		{"1601-01-01T01:00:00+01:00", "1601-01-01T00:00:00.0000000Z"},         // the first, by offset
		{"1600-12-31T23:00:00-01:00", "1601-01-01T00:00:00.0000000Z"},         // the range is in UTC
		{"9999-12-31T23:59:59.9999999Z", "9999-12-31T23:59:59.9999999Z"},      // the last DateTime
		{"9999-12-31T23:59:59.99999999999Z", "9999-12-31T23:59:59.9999999Z"},  //
		{"9999-12-31T23:59:59.9999999", "9999-12-31T23:59:59.9999999Z"},       //
	}
	for _, c := range ok {
		t.Run("OK/"+c.in, func(t *testing.T) {
			d, err := model.ParseDateTime(c.in)
			if err != nil || d.String() != c.want {
				t.Fatalf("ParseDateTime(%q) = %s, %v; want %s", c.in, d, err, c.want)
			}
		})
	}
	outOfRange := []string{
		"1600-12-31T23:59:59.9999999Z", "0001-01-01T00:00:00Z", "0000-01-01T00:00:00Z",
		"1601-01-01T00:00:00+00:01", "9999-12-31T23:59:59.9999999-00:01", "9999-12-31T23:00:00-01:00",
	}
	for _, in := range outOfRange {
		t.Run("ErrValueOutOfRange/"+in, func(t *testing.T) {
			_, err := model.ParseDateTime(in)
			wantErr(t, err, model.ErrValueOutOfRange)
		})
	}
	invalid := []string{
		"", "2021-08-31", "2021-08-31T", "2021-08-31T15", "2021-08-31T15:40:49.", "2021-08-31T15:40:49.Z",
		"2021-08-31 15:40:49Z", "2021-08-31t15:40:49Z", "2021-08-31T15:40:49z", "2021-8-31T15:40:49Z",
		"2021-08-31T5:40:49Z", "2021-08-31T15:4:49Z", "2021-08-31T15:40:4Z", "21-08-31T15:40:49Z",
		"10000-01-01T00:00:00Z", "-2021-08-31T15:40:49Z", "+2021-08-31T15:40:49Z", " 2021-08-31T15:40:49Z",
		"2021-08-31T15:40:49Z ", "2021-08-31T15:40:49Zjunk", "2021-08-31T15:40:49,5Z", "2021-08-31T15:40:49.5.5Z",
		"2021-02-29T00:00:00Z", "2021-04-31T00:00:00Z", "2021-13-01T00:00:00Z", "2021-00-01T00:00:00Z",
		"2021-01-00T00:00:00Z", "2021-01-32T00:00:00Z", "2021-08-31T24:00:00Z", "2021-08-31T23:60:00Z",
		"2021-08-31T23:59:60Z", "2021-08-31T15:40:49+24:00", "2021-08-31T15:40:49+01:60", "2021-08-31T15:40:49+01",
		"2021-08-31T15:40:49+0100", "2021-08-31T15:40:49+1:00", "2021-08-31T15:40:49UTC", "2021-08-31T15:40:49.6724407ZZ",
		"datetime'2021-08-31T15:40:49Z'", "2021-08-31T15:40:49\x00",
	}
	for _, in := range invalid {
		t.Run("ErrValueInvalid/"+in, func(t *testing.T) {
			_, err := model.ParseDateTime(in)
			wantErr(t, err, model.ErrValueInvalid)
		})
	}
}

// TestDateTime_RoundTrip: every DateTime in range prints and parses back to itself, and
// agrees with time.Time in any zone.
func TestDateTime_RoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	zones := []*time.Location{time.UTC, time.FixedZone("", 14*3600), time.FixedZone("", -(9*3600 + 30*60))}
	for i := 0; i < 2000; i++ {
		d := model.MinDateTime + model.DateTime(r.Int64N(int64(model.MaxDateTime-model.MinDateTime+1)))
		if i < 2 {
			d = []model.DateTime{model.MinDateTime, model.MaxDateTime}[i]
		}
		if back := mustDateTime(t, d.String()); back != d {
			t.Fatalf("%s reads back as %s", d, back)
		}
		tm := d.Time().In(zones[i%len(zones)])
		if model.DateTimeOf(tm) != d {
			t.Fatalf("DateTimeOf(%v) = %v, want %v", tm, model.DateTimeOf(tm), d)
		}
		if tm.Year() > 9999 {
			continue // a local year of five digits has no ISO 8601 form here
		}
		if got, err := model.ParseDateTime(tm.Format(time.RFC3339Nano)); err != nil || got != d {
			t.Fatalf("ParseDateTime(%s) = %v, %v; want %v", tm.Format(time.RFC3339Nano), got, err, d)
		}
	}
}

func TestDateTimeOf(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		tm := time.Date(2021, 8, 31, 15, 40, 49, 672440799, time.UTC)
		if got := model.DateTimeOf(tm).String(); got != "2021-08-31T15:40:49.6724407Z" {
			t.Fatalf("DateTimeOf = %s", got)
		}
		if got := model.DateTimeOf(time.Unix(0, 0)); got != 621_355_968_000_000_000 {
			t.Fatalf("Unix epoch = %d ticks, want 621355968000000000", got)
		}
		if got := model.DateTimeOf(time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC)); got != 0 {
			t.Fatalf("year 1 = %d ticks, want 0", got)
		}
		if got := model.DateTimeOf(time.Date(1601, 1, 1, 0, 0, 0, 0, time.UTC)); got != model.MinDateTime {
			t.Fatalf("1601 = %d, want MinDateTime", got)
		}
	})
	t.Run("ErrValueOutOfRange", func(t *testing.T) {
		// Times that cannot be counted in ticks stay out of range instead of wrapping.
		far := []time.Time{
			time.Date(30000, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(1_000_000_000, 1, 1, 0, 0, 0, 0, time.UTC),
			time.Date(0, 12, 31, 23, 59, 59, 0, time.UTC), time.Date(-50000, 1, 1, 0, 0, 0, 0, time.UTC),
		}
		for _, tm := range far {
			d := model.DateTimeOf(tm)
			if d.Valid() {
				t.Errorf("DateTimeOf(%v) = %v is valid", tm, d)
			}
			wantErr(t, model.DateTimeValue(d).Validate(), model.ErrValueOutOfRange)
		}
		if model.DateTimeOf(far[0]) != math.MaxInt64 || model.DateTimeOf(far[3]) != math.MinInt64 {
			t.Error("far times are not clamped to the ends of int64")
		}
	})
}

func TestDateTime_Valid(t *testing.T) {
	for d, want := range map[model.DateTime]bool{
		model.MinDateTime: true, model.MaxDateTime: true, model.MinDateTime - 1: false, model.MaxDateTime + 1: false,
		0: false, -1: false, math.MaxInt64: false,
	} {
		if d.Valid() != want {
			t.Errorf("DateTime(%d).Valid() = %v", d, !want)
		}
	}
}

func FuzzParseDateTime(f *testing.F) {
	for _, s := range []string{"2021-08-31T15:40:49.6724407Z", "2021-08-31T15:40:49.1+14:00", "1601-01-01T00:00", "9999-12-31T23:59:59.99999999-00:00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := model.ParseDateTime(s)
		if err != nil {
			return
		}
		if !d.Valid() {
			t.Fatalf("ParseDateTime(%q) = %d, out of range", s, d)
		}
		// Whatever is accepted is also a valid time to the standard library, at the same
		// instant to the 100 ns.
		tm, terr := time.Parse(time.RFC3339Nano, s)
		if terr == nil && model.DateTimeOf(tm) != d {
			t.Fatalf("ParseDateTime(%q) = %s, time.Parse says %s", s, d, tm)
		}
	})
}

// layout is the wire form as a time.Format layout, the reference for AppendText.
const layout = "2006-01-02T15:04:05.0000000Z"

// FuzzDateTime_AppendText checks the hand-written formatter against time.Format over the
// whole valid range and beyond it.
func FuzzDateTime_AppendText(f *testing.F) {
	for _, d := range []int64{int64(model.MinDateTime), int64(model.MaxDateTime), 0, -1, int64(model.MaxDateTime) + 1, 630_822_816_000_000_000} {
		f.Add(d)
	}
	f.Fuzz(func(t *testing.T, n int64) {
		d := model.DateTime(n)
		if got, want := string(d.AppendText(nil)), d.Time().Format(layout); got != want {
			t.Fatalf("%d: AppendText %q, want %q", n, got, want)
		}
	})
}

func TestDateTime_AppendTextEveryThirdDay(t *testing.T) {
	const day = 86_400 * 10_000_000
	for d := model.MinDateTime; d <= model.MaxDateTime; d += 3*day - 1234567 {
		if got, want := string(d.AppendText(nil)), d.Time().Format(layout); got != want {
			t.Fatalf("%d: AppendText %q, want %q", d, got, want)
		}
	}
}

func TestDateTime_AppendText(t *testing.T) {
	layout := "2006-01-02T15:04:05.0000000Z"
	want := func(d model.DateTime) string { return string(d.Time().AppendFormat(nil, layout)) }
	t.Run("OK", func(t *testing.T) {
		const epoch = 621_355_968_000_000_000
		cases := []model.DateTime{0, 1, model.MinDateTime, model.MaxDateTime, model.MinDateTime - 1, epoch, epoch + 6724407, 637660548496724407}
		r := rand.New(rand.NewPCG(1, 2))
		for range 10000 {
			cases = append(cases, model.DateTime(r.Int64N(int64(model.MaxDateTime)+1)))
		}
		for _, d := range cases {
			if got := string(d.AppendText(nil)); got != string(want(d)) {
				t.Fatalf("AppendText(%d) = %s, want %s", d, got, want(d))
			}
		}
	})
	t.Run("OutOfRange", func(t *testing.T) {
		// years 0 and -1, leap days around them, and any int64 (the year then has up to 5 digits or a sign)
		const year = 365*86_400*10_000_000 + 6*3_600*10_000_000
		cases := []model.DateTime{-1, model.MaxDateTime + 1, math.MinInt64, math.MaxInt64, math.MinInt64 + 1,
			-year, -2 * year, -year - 1, -59 * 86_400 * 10_000_000, -306 * 86_400 * 10_000_000}
		r := rand.New(rand.NewPCG(3, 4))
		for range 20000 {
			cases = append(cases, model.DateTime(r.Int64()), model.DateTime(-r.Int64N(1e17)))
		}
		for _, d := range cases {
			if got := string(d.AppendText(nil)); got != string(want(d)) {
				t.Fatalf("AppendText(%d) = %s, want %s", d, got, want(d))
			}
		}
	})
}
