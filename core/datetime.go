package core

import (
	"strings"
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

// dateTimeLayout is Azure's wire form: ISO 8601 UTC with exactly seven fractional digits.
const dateTimeLayout = "2006-01-02T15:04:05.0000000Z"

// DateTimeOf converts t to a DateTime, truncating below 100 ns. It does not check the range.
func DateTimeOf(t time.Time) DateTime {
	sec := t.Unix()
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

// AppendText appends d's wire form to b.
func (d DateTime) AppendText(b []byte) []byte { return d.Time().AppendFormat(b, dateTimeLayout) }

// ParseDateTime parses an ISO 8601 date and time: a "Z" or numeric offset, or no zone at
// all (read as UTC), and up to seven fractional digits kept exactly (more are truncated to
// 100 ns). A value outside 1601-01-01 to 9999-12-31 is ErrValueOutOfRange.
func ParseDateTime(s string) (DateTime, error) {
	layout := "2006-01-02T15:04:05Z07:00"
	if !hasZone(s) {
		layout = "2006-01-02T15:04:05"
	}
	t, err := time.Parse(layout, s)
	if err != nil {
		return 0, ErrValueInvalid
	}
	if t.Year() < 1601 || t.Year() > 9999 {
		return 0, ErrValueOutOfRange
	}
	d := DateTimeOf(t)
	if !d.Valid() {
		return 0, ErrValueOutOfRange
	}
	return d, nil
}

// hasZone reports whether an ISO 8601 time ends in "Z" or a ±hh:mm offset.
func hasZone(s string) bool {
	if strings.HasSuffix(s, "Z") || strings.HasSuffix(s, "z") {
		return true
	}
	i := strings.LastIndexByte(s, 'T')
	return i >= 0 && strings.ContainsAny(s[i:], "+-")
}
