package auth

import (
	"crypto/subtle"
	"encoding/base64"
	"fmt"
	"sync"

	"github.com/tabletopdb/tabletop/worker/rest/auth/hmacsha256"
)

// The development storage account every Azure emulator knows (Microsoft's "Use the
// Azurite emulator" documentation gives its name and key).
const (
	DevAccountName = "devstoreaccount1"
	DevAccountKey  = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="
)

// Account is a storage account and its keys (base64-decoded; primary and secondary are
// both valid).
type Account struct {
	Name string
	Keys [][]byte
}

// DevAccount returns devstoreaccount1 with its well-known key.
func DevAccount() Account {
	a, err := NewAccount(DevAccountName, DevAccountKey)
	if err != nil {
		panic(err) // the constant key is valid base64
	}
	return a
}

// NewAccount returns the account name with its keys given in base64, as in connection
// strings.
func NewAccount(name string, keys ...string) (Account, error) {
	a := Account{Name: name}
	for i, k := range keys {
		b, err := base64.StdEncoding.DecodeString(k)
		if err != nil {
			return Account{}, fmt.Errorf("decode key %d: %w", i, err)
		}
		a.Keys = append(a.Keys, b)
	}
	return a, nil
}

// matches reports whether sig (base64) is the HMAC-SHA256 of stringToSign under any of
// the account's keys, comparing in constant time. It works in a pooled scratch, so that a
// signature of the usual length is checked without allocating.
func (a Account) matches(stringToSign, sig string) bool {
	s := scratches.Get().(*scratch)
	defer scratches.Put(s)
	s.text = append(s.text[:0], stringToSign...)
	return a.matchesText(s, sig)
}

// matchesText is matches for the string to sign in s.text.
func (a Account) matchesText(s *scratch, sig string) bool {
	got, err := s.decode(sig)
	if err != nil || len(got) != hmacsha256.Size {
		return false
	}
	ok := false
	for _, key := range a.Keys {
		m := keyedMAC(key)
		m.Write(s.text)
		ok = subtle.ConstantTimeCompare(m.Sum(s.sum[:0]), got) == 1 || ok
		releaseMAC(key, m)
	}
	return ok
}

// scratch is the memory a signature check works in (see matches), taken from scratches.
type scratch struct {
	sig  []byte                // the signature as sent, to decode
	got  [48]byte              // the signature decoded, when it is at most maxScratchSig long
	sum  [hmacsha256.Size]byte // a MAC computed
	text []byte                // the string to sign
}

// maxScratchSig is the longest signature decoded into scratch.got (48 bytes at most).
const maxScratchSig = 64

var scratches = sync.Pool{New: func() any { return new(scratch) }}

// decode decodes sig (base64) as base64.StdEncoding.DecodeString does.
func (s *scratch) decode(sig string) ([]byte, error) {
	if len(sig) > maxScratchSig {
		return base64.StdEncoding.DecodeString(sig)
	}
	s.sig = append(s.sig[:0], sig...)
	n, err := base64.StdEncoding.Decode(s.got[:], s.sig)
	return s.got[:n], err
}
