package exchange

import "time"

// TimeFormat is the HTTP date format (RFC 9110's IMF-fixdate), in which Date and
// x-ms-date are written; the time must be in UTC.
const TimeFormat = "Mon, 02 Jan 2006 15:04:05 GMT"

// ParseTime parses an HTTP date in any of the three forms HTTP/1.1 allows: TimeFormat,
// RFC 850 and ANSI C's asctime, as net/http's ParseTime does.
func ParseTime(text string) (t time.Time, err error) {
	for _, layout := range []string{TimeFormat, time.RFC850, time.ANSIC} {
		if t, err = time.Parse(layout, text); err == nil {
			return t, nil
		}
	}
	return t, err
}
