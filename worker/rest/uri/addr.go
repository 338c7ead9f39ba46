package uri

import (
	"cmp"
	"errors"
	"strconv"
	"strings"
)

// Addr is an IPv4 or IPv6 address with an optional IPv6 zone, as net/netip's Addr; the
// zero Addr is no address.
type Addr struct {
	ip   [16]byte // IPv4 in the last four bytes
	kind byte     // 0 none, 4 or 6
	zone string
}

// errAddr is an address ParseAddr cannot read.
var errAddr = errors.New("not an IP address")

// ParseAddr parses an address as netip.ParseAddr does: dotted IPv4 with four decimal
// fields without leading zeros, or IPv6 (RFC 4291: "::", an IPv4 tail) with an optional
// "%zone".
func ParseAddr(s string) (Addr, error) {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '.':
			return parseIPv4(s)
		case ':':
			return parseIPv6(s)
		case '%':
			return Addr{}, addrError(s)
		}
	}
	return Addr{}, addrError(s)
}

// addrError is the error for an address s that does not parse.
func addrError(s string) error {
	return errors.New("ParseAddr(" + strconv.Quote(s) + "): " + errAddr.Error())
}

// parseIPv4 parses four dotted decimal fields, each 0 to 255 without a leading zero.
func parseIPv4(s string) (Addr, error) {
	a := Addr{kind: 4}
	fields, ok := v4Fields(s)
	if !ok {
		return Addr{}, addrError(s)
	}
	copy(a.ip[12:], fields[:])
	return a, nil
}

// v4Fields reads "a.b.c.d".
func v4Fields(s string) (f [4]byte, ok bool) {
	for i := range f {
		p, rest, more := strings.Cut(s, ".")
		if more != (i < 3) {
			return f, false
		}
		v, ok := v4Field(p)
		if !ok {
			return f, false
		}
		f[i], s = v, rest
	}
	return f, true
}

// v4Field reads one decimal field of an IPv4 address: 0 to 255, no leading zero.
func v4Field(p string) (byte, bool) {
	if p == "" || len(p) > 3 || len(p) > 1 && p[0] == '0' {
		return 0, false
	}
	v := 0
	for j := 0; j < len(p); j++ {
		if p[j] < '0' || p[j] > '9' {
			return 0, false
		}
		v = v*10 + int(p[j]-'0')
	}
	return byte(v), v <= 255
}

// parseIPv6 parses eight colon-separated groups of one to four hex digits, a "::" for
// one or more groups of zeros, an IPv4 address for the last two and an optional zone.
func parseIPv6(in string) (Addr, error) {
	s, zone, hasZone := strings.Cut(in, "%")
	if hasZone && zone == "" {
		return Addr{}, addrError(in)
	}
	a := Addr{kind: 6, zone: zone}
	ellipsis, i := -1, 0
	if strings.HasPrefix(s, "::") {
		ellipsis, s = 0, s[2:]
		if s == "" {
			return a, nil
		}
	}
	for i < 16 {
		off, acc := 0, 0
		for ; off < len(s) && isHex(s[off]); off++ {
			if off > 3 {
				return Addr{}, addrError(in)
			}
			acc = acc<<4 | int(unhex(s[off]))
		}
		if off == 0 {
			return Addr{}, addrError(in)
		}
		if off < len(s) && s[off] == '.' {
			f, ok := v4Fields(s)
			if ellipsis < 0 && i != 12 || i+4 > 16 || !ok {
				return Addr{}, addrError(in)
			}
			copy(a.ip[i:], f[:])
			i, s = i+4, ""
			break
		}
		a.ip[i], a.ip[i+1] = byte(acc>>8), byte(acc)
		i += 2
		if s = s[off:]; s == "" {
			break
		}
		if s[0] != ':' || len(s) == 1 {
			return Addr{}, addrError(in)
		}
		if s = s[1:]; s[0] == ':' {
			if ellipsis >= 0 {
				return Addr{}, addrError(in)
			}
			ellipsis, s = i, s[1:]
			if s == "" {
				break
			}
		}
	}
	if s != "" || i < 16 && ellipsis < 0 || i == 16 && ellipsis >= 0 {
		return Addr{}, addrError(in)
	}
	if n := 16 - i; n > 0 {
		copy(a.ip[ellipsis+n:], a.ip[ellipsis:i])
		clear(a.ip[ellipsis : ellipsis+n])
	}
	return a, nil
}

// IsValid reports whether a is an address.
func (a Addr) IsValid() bool { return a.kind != 0 }

// Is4 reports whether a is an IPv4 address (not an IPv4-mapped IPv6 one).
func (a Addr) Is4() bool { return a.kind == 4 }

// Zone is a's IPv6 zone, "" for none.
func (a Addr) Zone() string { return a.zone }

// Unmap is a with an IPv4-mapped IPv6 address (::ffff:a.b.c.d) made IPv4.
func (a Addr) Unmap() Addr {
	mapped := [12]byte{10: 0xff, 11: 0xff}
	if a.kind == 6 && [12]byte(a.ip[:12]) == mapped {
		a.kind, a.zone = 4, ""
		clear(a.ip[:12])
	}
	return a
}

// Compare is -1, 0 or +1 as a sorts before, with or after b, as netip's Compare: no
// address, then IPv4, then IPv6; within a family by value, then by zone.
func (a Addr) Compare(b Addr) int {
	if c := cmp.Compare(a.kind, b.kind); c != 0 {
		return c
	}
	if c := strings.Compare(string(a.ip[:]), string(b.ip[:])); c != 0 {
		return c
	}
	return strings.Compare(a.zone, b.zone)
}

// String writes a as netip does: dotted IPv4; IPv6 in RFC 5952 form (the first longest
// run of two or more zero groups as "::"), "::ffff:" and dotted IPv4 for a mapped one,
// and "%zone"; "invalid IP" for no address.
func (a Addr) String() string {
	switch a.kind {
	case 0:
		return "invalid IP"
	case 4:
		return v4String(a.ip[12:])
	}
	var b []byte
	if a.Unmap().kind == 4 {
		b = append([]byte("::ffff:"), v4String(a.ip[12:])...)
	} else {
		b = v6String(a.ip)
	}
	if a.zone != "" {
		b = append(append(b, '%'), a.zone...)
	}
	return string(b)
}

// v4String is "a.b.c.d".
func v4String(ip []byte) string {
	b := make([]byte, 0, 15)
	for i, v := range ip {
		if i > 0 {
			b = append(b, '.')
		}
		b = strconv.AppendUint(b, uint64(v), 10)
	}
	return string(b)
}

// v6String is ip's eight groups in lower-case hex with the first longest run of two or
// more zero groups written "::".
func v6String(ip [16]byte) []byte {
	group := func(i int) uint64 { return uint64(ip[2*i])<<8 | uint64(ip[2*i+1]) }
	zeroStart, zeroEnd := -1, -1
	for i := 0; i < 8; i++ {
		j := i
		for j < 8 && group(j) == 0 {
			j++
		}
		if j-i >= 2 && j-i > zeroEnd-zeroStart {
			zeroStart, zeroEnd = i, j
		}
	}
	b := make([]byte, 0, 39)
	for i := 0; i < 8; i++ {
		if i == zeroStart {
			b = append(b, ':', ':')
			if i = zeroEnd; i >= 8 {
				break
			}
		} else if i > 0 {
			b = append(b, ':')
		}
		b = strconv.AppendUint(b, group(i), 16)
	}
	return b
}

// ParseAddrPort parses "ip:port" or "[ipv6]:port" as netip.ParseAddrPort does and
// returns its address and port: the port is decimal and at most 65535, an IPv6 address
// is bracketed and an IPv4 one is not.
func ParseAddrPort(s string) (Addr, uint16, error) {
	i := strings.LastIndexByte(s, ':')
	if i < 1 || i == len(s)-1 {
		return Addr{}, 0, errors.New("invalid ip:port " + strconv.Quote(s))
	}
	ip, bracketed := s[:i], false
	if ip[0] == '[' {
		if len(ip) < 2 || ip[len(ip)-1] != ']' {
			return Addr{}, 0, errors.New("invalid ip:port " + strconv.Quote(s) + ": missing ]")
		}
		ip, bracketed = ip[1:len(ip)-1], true
	}
	port, err := strconv.ParseUint(s[i+1:], 10, 16)
	if err != nil {
		return Addr{}, 0, errors.New("invalid ip:port " + strconv.Quote(s) + ": invalid port")
	}
	a, err := ParseAddr(ip)
	if err != nil || bracketed == a.Is4() {
		return Addr{}, 0, errors.New("invalid ip:port " + strconv.Quote(s) + ": invalid address")
	}
	return a, uint16(port), nil
}
