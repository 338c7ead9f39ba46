package core

import "encoding/hex"

// ParseGuid parses a GUID in its 36-character text form, such as
// "0d391d16-97f1-4b9a-be68-4cc871f90001", in either case.
func ParseGuid(s string) (Guid, error) {
	var g Guid
	if len(s) != 36 || s[8] != '-' || s[13] != '-' || s[18] != '-' || s[23] != '-' {
		return g, ErrValueInvalid
	}
	var hexDigits [32]byte
	n := 0
	for i := 0; i < len(s); i++ {
		if i == 8 || i == 13 || i == 18 || i == 23 {
			continue
		}
		hexDigits[n] = s[i]
		n++
	}
	if _, err := hex.Decode(g[:], hexDigits[:]); err != nil {
		return g, ErrValueInvalid
	}
	return g, nil
}

// String formats g in lowercase text form.
func (g Guid) String() string {
	var b [36]byte
	hex.Encode(b[0:8], g[0:4])
	b[8] = '-'
	hex.Encode(b[9:13], g[4:6])
	b[13] = '-'
	hex.Encode(b[14:18], g[6:8])
	b[18] = '-'
	hex.Encode(b[19:23], g[8:10])
	b[23] = '-'
	hex.Encode(b[24:], g[10:])
	return string(b[:])
}
