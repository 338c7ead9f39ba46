package exchange

import (
	"errors"
	"strings"
	"time"
)

// TimeFormat is the HTTP date format (RFC 9110's IMF-fixdate), in which Date and
// x-ms-date are written; the time must be in UTC.
const TimeFormat = "Mon, 02 Jan 2006 15:04:05 GMT"

// ErrTimeInvalid means a text is not an HTTP date.
var ErrTimeInvalid = errors.New("not an HTTP date")

var (
	shortDays = []string{"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"}
	longDays  = []string{"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"}
	months    = []string{"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"}
)

// ParseTime parses an HTTP date in the three forms RFC 9110 (section 5.6.7) asks a
// recipient to accept: IMF-fixdate "Sun, 06 Nov 1994 08:49:37 GMT", the obsolete RFC 850
// form "Sunday, 06-Nov-94 08:49:37 GMT" (a two-digit year below 69 is in the 2000s) and
// ANSI C's asctime "Sun Nov  6 08:49:37 1994". Names are matched as RFC 9110 writes them,
// case-sensitively; the weekday must be a weekday's name but is not checked against the
// date, as net/http does not. Anything else is ErrTimeInvalid. Every date this accepts,
// net/http's ParseTime reads as the same instant (FuzzParseTime); the reverse does not
// hold for lenient variants (other zone names, fractional seconds, lower case).
//
// It reads the text itself: time.Parse's layout interpreter is the largest part of the
// time package, and the edge build has no room for it.
func ParseTime(text string) (time.Time, error) {
	r := dateReader{s: text}
	var year, month, day int
	switch {
	case len(text) > 3 && text[3] == ',': // IMF-fixdate
		r.name(shortDays)
		r.lit(", ")
		day = r.num(2)
		r.lit(" ")
		month = r.name(months)
		r.lit(" ")
		year = r.num(4)
		r.lit(" ")
	case len(text) > 3 && text[3] == ' ': // asctime
		r.name(shortDays)
		r.lit(" ")
		month = r.name(months)
		r.lit(" ")
		if strings.HasPrefix(r.s, " ") {
			r.s = r.s[1:]
			day = r.num(1)
		} else {
			day = r.num(2)
		}
		r.lit(" ")
		h, m, s := r.clock()
		r.lit(" ")
		year = r.num(4)
		return r.date(year, month, day, h, m, s)
	default: // RFC 850
		r.name(longDays)
		r.lit(", ")
		day = r.num(2)
		r.lit("-")
		month = r.name(months)
		r.lit("-")
		if year = r.num(2) + 1900; year < 1969 {
			year += 100
		}
		r.lit(" ")
	}
	h, m, s := r.clock()
	r.lit(" GMT")
	return r.date(year, month, day, h, m, s)
}

// dateReader reads the fields of an HTTP date from s, consuming it; a field that is not
// there sets bad.
type dateReader struct {
	s   string
	bad bool
}

// lit consumes the text x.
func (r *dateReader) lit(x string) {
	if !strings.HasPrefix(r.s, x) {
		r.bad = true
		return
	}
	r.s = r.s[len(x):]
}

// num reads exactly n decimal digits.
func (r *dateReader) num(n int) int {
	if len(r.s) < n {
		r.bad = true
		return 0
	}
	v := 0
	for _, c := range []byte(r.s[:n]) {
		if c < '0' || c > '9' {
			r.bad = true
			return 0
		}
		v = v*10 + int(c-'0')
	}
	r.s = r.s[n:]
	return v
}

// name reads one of names and returns its position, counted from 1.
func (r *dateReader) name(names []string) int {
	for i, n := range names {
		if strings.HasPrefix(r.s, n) {
			r.s = r.s[len(n):]
			return i + 1
		}
	}
	r.bad = true
	return 0
}

// clock reads hh:mm:ss.
func (r *dateReader) clock() (h, m, s int) {
	h = r.num(2)
	r.lit(":")
	m = r.num(2)
	r.lit(":")
	return h, m, r.num(2)
}

// date checks the fields read and that nothing follows them, and returns the time in UTC.
func (r *dateReader) date(year, month, day, h, m, s int) (time.Time, error) {
	if r.bad || r.s != "" || month < 1 || day < 1 || h > 23 || m > 59 || s > 59 ||
		day > time.Date(year, time.Month(month)+1, 0, 0, 0, 0, 0, time.UTC).Day() {
		return time.Time{}, ErrTimeInvalid
	}
	return time.Date(year, time.Month(month), day, h, m, s, 0, time.UTC), nil
}

// AppendTime appends t in UTC in the HTTP date form TimeFormat, as
// t.UTC().Format(TimeFormat) writes it (FuzzAppendTime). A year outside 0–9999 has no
// HTTP date; it is written as Format writes it.
//
// It writes the fields itself: time.Format's layout interpreter is large, and under lazy
// wasm compilation its first use, on the edge's first answer after a start, costs its
// compilation.
func AppendTime(b []byte, t time.Time) []byte {
	t = t.UTC()
	year, month, day := t.Date()
	if year < 0 || year > 9999 {
		return t.AppendFormat(b, TimeFormat)
	}
	h, m, s := t.Clock()
	d := [len(TimeFormat)]byte{3: ',', 4: ' ', 7: ' ', 11: ' ', 16: ' ', 19: ':', 22: ':', 25: ' ', 26: 'G', 27: 'M', 28: 'T'}
	copy(d[0:3], shortDays[t.Weekday()])
	putDigits(d[5:7], day)
	copy(d[8:11], months[month-1])
	putDigits(d[12:14], year/100)
	putDigits(d[14:16], year%100)
	putDigits(d[17:19], h)
	putDigits(d[20:22], m)
	putDigits(d[23:25], s)
	return append(b, d[:]...)
}

// FormatTime is t in UTC in the HTTP date form TimeFormat (see AppendTime).
func FormatTime(t time.Time) string { return string(AppendTime(make([]byte, 0, len(TimeFormat)), t)) }

// putDigits writes v, from 0 to 99, as two decimal digits into b.
func putDigits(b []byte, v int) {
	b[0], b[1] = byte('0'+v/10), byte('0'+v%10)
}
