package uri

import (
	"errors"
	"strconv"
	"strings"
)

// parseHost checks "host", "host:port" or "[ipv6]:port" as net/url does and returns it
// unescaped.
func parseHost(scheme, host string) (string, error) {
	if open := strings.LastIndexByte(host, '['); open > 0 {
		return "", errors.New("invalid IP-literal")
	} else if open == 0 {
		return parseIPLiteral(host)
	} else if i := strings.IndexByte(host, ':'); i != -1 {
		// Several colons: http and https take the first (the port is then invalid),
		// other schemes the last, as net/url does by default.
		if last := strings.LastIndexByte(host, ':'); last != i && scheme != "http" && scheme != "https" {
			i = last
		}
		if port := host[i:]; !validOptionalPort(port) {
			return "", errors.New("invalid port " + strconv.Quote(port) + " after host")
		}
	}
	if err := checkEscapes(host, true); err != nil {
		return "", err
	}
	return decode(host, false), nil
}

// parseIPLiteral checks "[ipv6]" or "[ipv6%25zone]" with an optional ":port".
func parseIPLiteral(host string) (string, error) {
	closing := strings.LastIndexByte(host, ']')
	if closing < 0 {
		return "", errors.New("missing ']' in host")
	}
	port := host[closing+1:]
	if !validOptionalPort(port) {
		return "", errors.New("invalid port " + strconv.Quote(port) + " after host")
	}
	name, zone := host[1:closing], ""
	if i := strings.Index(name, "%25"); i >= 0 {
		name, zone = name[:i], name[i:]
	}
	if err := checkEscapes(name, true); err != nil {
		return "", err
	}
	if err := checkZone(zone); err != nil {
		return "", err
	}
	literal := decode(name, false) + decode(zone, false)
	a, err := ParseAddr(literal)
	if err != nil {
		return "", errors.New("invalid host: " + err.Error())
	}
	if a.Is4() {
		return "", errors.New("invalid IP-literal")
	}
	return "[" + literal + "]" + port, nil
}

// checkZone checks a zone ("%25" and what follows) as net/url does: escapes are
// well-formed and stand for "%", a space or an ASCII byte a host may hold; other ASCII bytes
// are ones a host may hold.
func checkZone(zone string) error {
	for i := 0; i < len(zone); i++ {
		switch c := zone[i]; {
		case c == '%':
			if i+2 >= len(zone) || !isHex(zone[i+1]) || !isHex(zone[i+2]) {
				return EscapeError(zone[i:min(i+3, len(zone))])
			}
			v := unhex(zone[i+1])<<4 | unhex(zone[i+2])
			if zone[i:i+3] != "%25" && v != ' ' && !hostByte(v) {
				return EscapeError(zone[i : i+3])
			}
			i += 2
		case c < 0x80 && c != '+' && !hostByte(c):
			return InvalidHostError(zone[i : i+1])
		}
	}
	return nil
}

// validOptionalPort reports whether port is "" or ":" followed by digits.
func validOptionalPort(port string) bool {
	if port == "" {
		return true
	}
	if port[0] != ':' {
		return false
	}
	for i := 1; i < len(port); i++ {
		if port[i] < '0' || port[i] > '9' {
			return false
		}
	}
	return true
}
