package rest

// oldestVersion is the first x-ms-version Azure Storage published (Microsoft's "Previous
// Azure Storage service versions"). Every SDK release sends a newer version than the last;
// an emulator that refuses the versions it does not know fails them all until it is
// updated, so any well-formed version from this one on is served, with the behaviour of
// the versions published so far.
const oldestVersion = "2009-04-14"

// checkVersion checks the request's x-ms-version, when it names one: a date
// (YYYY-MM-DD, a real month and day) no older than oldestVersion, named once. Anything
// else is 400 InvalidHeaderValue, as Azure answers a version it does not serve.
func (c *call) checkVersion() error {
	v := c.r.Header.Values("x-ms-version")
	if len(v) == 0 {
		return nil
	}
	if len(v) > 1 || !isVersionDate(v[0]) || v[0] < oldestVersion {
		return ErrVersionInvalid
	}
	return nil
}

// isVersionDate reports whether v is a date written YYYY-MM-DD.
func isVersionDate(v string) bool {
	if len(v) != 10 || v[4] != '-' || v[7] != '-' {
		return false
	}
	for i, c := range []byte(v) {
		if i != 4 && i != 7 && (c < '0' || c > '9') {
			return false
		}
	}
	month := int(v[5]-'0')*10 + int(v[6]-'0')
	day := int(v[8]-'0')*10 + int(v[9]-'0')
	return month >= 1 && month <= 12 && day >= 1 && day <= daysIn(month, v[:4])
}

// daysIn is the number of days of month in year (four digits).
func daysIn(month int, year string) int {
	switch month {
	case 2:
		y := 0
		for _, c := range []byte(year) {
			y = y*10 + int(c-'0')
		}
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}
