package model

import (
	"math"
	"strconv"
	"time"
)

// DateTime is an Edm.DateTime: a count of 100-nanosecond ticks since
// 0001-01-01T00:00:00Z, the resolution Azure keeps. Valid values lie between
// MinDateTime and MaxDateTime.
type DateTime int64

const (
	ticksPerSecond = 10_000_000
	unixEpochTicks = 621_355_968_000_000_000 // 1970-01-01T00:00:00Z

	// MinDateTime is 1601-01-01T00:00:00Z, the earliest DateTime Azure stores.
	MinDateTime DateTime = 504_911_232_000_000_000
	// MaxDateTime is 9999-12-31T23:59:59.9999999Z, the latest DateTime Azure stores.
	MaxDateTime DateTime = 3_155_378_975_999_999_999
)

// The whole seconds, relative to the Unix epoch, that a DateTime can count without
// overflowing int64.
const (
	minDateTimeUnix = -unixEpochTicks / ticksPerSecond
	maxDateTimeUnix = (math.MaxInt64-unixEpochTicks)/ticksPerSecond - 1
)

// DateTimeOf converts t to a DateTime, truncating below 100 ns. It does not check the
// range, but a time too far from year 1 to count in ticks becomes math.MinInt64 or
// math.MaxInt64, which are never Valid.
func DateTimeOf(t time.Time) DateTime {
	sec := t.Unix()
	switch {
	case sec < minDateTimeUnix:
		return math.MinInt64
	case sec > maxDateTimeUnix:
		return math.MaxInt64
	}
	return DateTime(sec*ticksPerSecond + int64(t.Nanosecond()/100) + unixEpochTicks)
}

// Time returns d as a UTC time.Time.
func (d DateTime) Time() time.Time {
	t := int64(d) - unixEpochTicks
	sec, rem := t/ticksPerSecond, t%ticksPerSecond
	if rem < 0 {
		sec--
		rem += ticksPerSecond
	}
	return time.Unix(sec, rem*100).UTC()
}

// Valid reports whether d lies within MinDateTime and MaxDateTime.
func (d DateTime) Valid() bool { return d >= MinDateTime && d <= MaxDateTime }

// String formats d in Azure's wire form, such as "2021-08-31T15:40:49.6724407Z".
func (d DateTime) String() string { return string(d.AppendText(nil)) }

// AppendText appends d's wire form to b. A value outside MinDateTime..MaxDateTime is
// written the way time.Time.AppendFormat writes it (a year below 0 with a minus sign, one
// above 9999 with all its digits), without linking time's formatter into the wasm.
func (d DateTime) AppendText(b []byte) []byte {
	t := int64(d) - unixEpochTicks // wraps for the lowest values, as Time does
	days, rem := t/ticksPerDay, t%ticksPerDay
	if rem < 0 {
		days--
		rem += ticksPerDay
	}
	y, m, day := civil(days + unixEpochTicks/ticksPerDay)
	b = appendYear(b, y)
	b = append(b, '-', digit(m/10), digit(m%10), '-', digit(day/10), digit(day%10), 'T')
	sec := rem / ticksPerSecond
	b = append(b, digit(sec/36000), digit(sec/3600%10), ':', digit(sec/600%6), digit(sec/60%10), ':',
		digit(sec%60/10), digit(sec%10), '.')
	frac := rem % ticksPerSecond
	for div := int64(ticksPerSecond / 10); div > 0; div /= 10 {
		b = append(b, digit(frac/div%10))
	}
	return append(b, 'Z')
}

// appendYear appends y as time's "2006" does: at least four digits, a minus sign first
// when y is negative.
func appendYear(b []byte, y int64) []byte {
	if y < 0 {
		b, y = append(b, '-'), -y
	}
	if y <= 9999 {
		return append4(b, y)
	}
	return strconv.AppendInt(b, y, 10)
}

const ticksPerDay = 86_400 * ticksPerSecond

// civil returns the proleptic Gregorian date (year 0 before year 1) of a day counted from
// 0001-01-01 (Howard Hinnant's civil_from_days, shifted to that epoch).
func civil(days int64) (y, m, d int64) {
	z := days + 306 // days since 0000-03-01
	era := z / 146_097
	if z%146_097 < 0 {
		era--
	}
	doe := z - era*146_097
	yoe := (doe - doe/1460 + doe/36_524 - doe/146_096) / 365
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	d = doy - (153*mp+2)/5 + 1
	m = mp + 3
	if m > 12 {
		m -= 12
	}
	y = yoe + era*400
	if m <= 2 {
		y++
	}
	return y, m, d
}

func digit(n int64) byte { return byte('0' + n) }

// append4 appends n, from 0 to 9999, as four digits.
func append4(b []byte, n int64) []byte {
	return append(b, digit(n/1000), digit(n/100%10), digit(n/10%10), digit(n%10))
}

// ParseDateTime parses an ISO 8601 date and time, YYYY-MM-DDThh:mm[:ss[.fffffff]] then
// "Z", a ±hh:mm offset, or no zone at all (read as UTC). Seven fractional digits are kept
// exactly; more are truncated to 100 ns. A value outside 1601-01-01 to 9999-12-31 (in
// UTC) is ErrValueOutOfRange; anything else that is not of this form is ErrValueInvalid.
func ParseDateTime(s string) (DateTime, error) {
	d, err := ParseEdmDateTime(s)
	if err == nil && !d.Valid() {
		return 0, ErrValueOutOfRange
	}
	return d, err
}

// ParseEdmDateTime parses the forms ParseDateTime does, in the whole range of
// Edm.DateTime, 0001-01-01 to 9999-12-31 (in UTC): the range of a DateTime a $filter
// compares with, which may lie before the first DateTime a store keeps.
func ParseEdmDateTime(s string) (DateTime, error) {
	p := dateParser{s: s}
	year, month, day := p.num(4), p.sep('-', 2), p.sep('-', 2)
	p.want('T')
	hour, minute := p.num(2), p.sep(':', 2)
	sec := 0
	if p.peek(':') {
		sec = p.sep(':', 2)
	}
	frac := p.fraction()
	offset := p.zone()
	if p.bad || len(p.s) != 0 || month < 1 || month > 12 || day < 1 || day > daysIn(year, month) ||
		hour > 23 || minute > 59 || sec > 59 {
		return 0, ErrValueInvalid
	}
	t := time.Date(year, time.Month(month), day, hour, minute, sec, 0, time.UTC)
	d := DateTimeOf(t.Add(-time.Duration(offset)*time.Minute)) + DateTime(frac)
	if d < 0 || d > MaxDateTime {
		return 0, ErrValueOutOfRange
	}
	return d, nil
}

// daysIn returns the number of days of a month (1-12) of a proleptic Gregorian year.
func daysIn(year, month int) int {
	return time.Date(year, time.Month(month)+1, 0, 0, 0, 0, 0, time.UTC).Day()
}

// dateParser reads the fields of an ISO 8601 date and time from s, consuming it; any
// malformed field sets bad.
type dateParser struct {
	s   string
	bad bool
}

// num reads exactly n decimal digits.
func (p *dateParser) num(n int) int {
	if len(p.s) < n {
		p.bad = true
		return 0
	}
	v := 0
	for i := 0; i < n; i++ {
		c := p.s[i]
		if c < '0' || c > '9' {
			p.bad = true
			return 0
		}
		v = v*10 + int(c-'0')
	}
	p.s = p.s[n:]
	return v
}

// sep reads the byte c then n digits.
func (p *dateParser) sep(c byte, n int) int {
	p.want(c)
	return p.num(n)
}

// want consumes the byte c.
func (p *dateParser) want(c byte) {
	if !p.peek(c) {
		p.bad = true
		return
	}
	p.s = p.s[1:]
}

// peek reports whether the next byte is c.
func (p *dateParser) peek(c byte) bool { return len(p.s) > 0 && p.s[0] == c }

// fraction reads an optional "." and at least one digit, returning 100 ns ticks; digits
// beyond the seventh are read and dropped.
func (p *dateParser) fraction() int64 {
	if !p.peek('.') {
		return 0
	}
	p.s = p.s[1:]
	var ticks int64
	n := 0
	for n < len(p.s) && p.s[n] >= '0' && p.s[n] <= '9' {
		if n < 7 {
			ticks = ticks*10 + int64(p.s[n]-'0')
		}
		n++
	}
	if n == 0 {
		p.bad = true
	}
	for i := n; i < 7; i++ {
		ticks *= 10
	}
	p.s = p.s[n:]
	return ticks
}

// zone reads an optional "Z" or ±hh:mm and returns the offset east of UTC in minutes.
func (p *dateParser) zone() int {
	if len(p.s) == 0 {
		return 0
	}
	sign := 1
	switch p.s[0] {
	case 'Z':
		p.s = p.s[1:]
		return 0
	case '-':
		sign = -1
	case '+':
	default:
		p.bad = true
		return 0
	}
	p.s = p.s[1:]
	h, m := p.num(2), p.sep(':', 2)
	if h > 23 || m > 59 {
		p.bad = true
	}
	return sign * (h*60 + m)
}
