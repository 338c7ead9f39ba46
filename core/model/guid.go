package model

import (
	"encoding/binary"
	"encoding/hex"
	"math/rand/v2"
)

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
func (g Guid) String() string { return string(g.AppendText(make([]byte, 0, 36))) }

// AppendText appends g in lowercase text form, such as
// 0d391d16-97f1-4b9a-be68-4cc871f90001.
func (g Guid) AppendText(b []byte) []byte {
	const digits = "0123456789abcdef"
	for i, c := range g {
		if i == 4 || i == 6 || i == 8 || i == 10 {
			b = append(b, '-')
		}
		b = append(b, digits[c>>4], digits[c&0xf])
	}
	return b
}

// NewGuid returns a random (version 4) Guid, for identities that must not repeat: request
// ids, multipart boundaries, a store's identity. The bits come from the runtime's
// ChaCha8 generator, seeded from the system's entropy (crypto.getRandomValues in a
// browser or a Worker); nothing uses them as a secret, and crypto/rand would pull
// math/big and an AES-based generator into the edge build for no gain.
func NewGuid() Guid {
	var g Guid
	binary.LittleEndian.PutUint64(g[:8], rand.Uint64())
	binary.LittleEndian.PutUint64(g[8:], rand.Uint64())
	g[6] = g[6]&0x0f | 0x40
	g[8] = g[8]&0x3f | 0x80
	return g
}
