package auth

import (
	"errors"
	"fmt"
	"strings"
)

// ErrAccountsInvalid means an accounts list is not "name:key[:key2]" entries separated by
// ";", with lowercase names of 3 to 24 letters and digits and base64 keys.
var ErrAccountsInvalid = errors.New("accounts must be name:key[:key2] entries separated by ;")

// ParseAccounts parses the accounts a host serves, as the native -accounts flag and the
// edge's TABLETOP_ACCOUNTS variable give them: "name:key[:key2]" entries separated by ";",
// keys in base64. The empty string is the development account.
func ParseAccounts(s string) ([]Account, error) {
	if strings.TrimSpace(s) == "" {
		return []Account{DevAccount()}, nil
	}
	var out []Account
	for _, entry := range strings.Split(s, ";") {
		if strings.TrimSpace(entry) == "" {
			continue
		}
		parts := strings.Split(strings.TrimSpace(entry), ":")
		if len(parts) < 2 || !validAccountName(parts[0]) {
			return nil, fmt.Errorf("parse account %q: %w", entry, ErrAccountsInvalid)
		}
		a, err := NewAccount(parts[0], parts[1:]...)
		if err != nil {
			return nil, fmt.Errorf("parse account %s: %w: %v", parts[0], ErrAccountsInvalid, err)
		}
		out = append(out, a)
	}
	return out, nil
}

// validAccountName checks an account name: 3 to 24 lowercase letters and digits.
func validAccountName(s string) bool {
	if len(s) < 3 || len(s) > 24 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !(s[i] >= 'a' && s[i] <= 'z' || s[i] >= '0' && s[i] <= '9') {
			return false
		}
	}
	return true
}
