package auth

import (
	"crypto/subtle"
	"encoding/base64"
	"fmt"

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
// the account's keys, comparing in constant time.
func (a Account) matches(stringToSign, sig string) bool {
	got, err := base64.StdEncoding.DecodeString(sig)
	if err != nil || len(got) != hmacsha256.Size {
		return false
	}
	ok := false
	var sum [hmacsha256.Size]byte
	for _, key := range a.Keys {
		m := keyedMAC(key)
		m.Write([]byte(stringToSign))
		ok = subtle.ConstantTimeCompare(m.Sum(sum[:0]), got) == 1 || ok
		releaseMAC(key, m)
	}
	return ok
}
