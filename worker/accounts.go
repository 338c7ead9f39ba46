package main

import (
	"encoding/base64"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/backend/file"
	"github.com/tabletopdb/tabletop/worker/auth"
	"github.com/tabletopdb/tabletop/worker/rest"
)

// memoryData is the -data value that keeps nothing on disk.
const memoryData = ":memory:"

// parseAccounts parses -accounts: "name:key[:key2]" entries separated by ";", keys in
// base64. The empty string is the development account.
func parseAccounts(s string) ([]auth.Account, error) {
	if strings.TrimSpace(s) == "" {
		return []auth.Account{auth.DevAccount()}, nil
	}
	var out []auth.Account
	for _, entry := range strings.Split(s, ";") {
		if strings.TrimSpace(entry) == "" {
			continue
		}
		parts := strings.Split(strings.TrimSpace(entry), ":")
		if len(parts) < 2 || !validAccountName(parts[0]) {
			return nil, fmt.Errorf("parse account %q: want name:key[:key2]", entry)
		}
		a := auth.Account{Name: parts[0]}
		for _, k := range parts[1:] {
			key, err := base64.StdEncoding.DecodeString(k)
			if err != nil {
				return nil, fmt.Errorf("parse key of account %s: %w", parts[0], err)
			}
			a.Keys = append(a.Keys, key)
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

// stores are the open stores of the accounts served.
type stores struct {
	accounts []*rest.Account
}

// openStores opens one store per account: in memory for ":memory:", else in the
// directory data/{account}, created if needed.
func openStores(data string, accts []auth.Account) (*stores, error) {
	s := &stores{}
	for _, a := range accts {
		st, err := openStore(data, a.Name)
		if err != nil {
			s.close()
			return nil, err
		}
		s.accounts = append(s.accounts, &rest.Account{Account: a, Store: st})
	}
	return s, nil
}

func openStore(data, account string) (*core.Store, error) {
	if data == memoryData {
		return core.Open(core.Options{})
	}
	dir := filepath.Join(data, account)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("create data directory: %w", err)
	}
	b, err := file.Open(dir, file.Options{})
	if err != nil {
		return nil, fmt.Errorf("open data directory %s: %w", dir, err)
	}
	st, err := core.Open(core.Options{Backend: b})
	if err != nil {
		b.Close()
		return nil, fmt.Errorf("open store in %s: %w", dir, err)
	}
	return st, nil
}

// close closes every store, so that everything acknowledged is on disk.
func (s *stores) close() error {
	var errs []error
	for _, a := range s.accounts {
		errs = append(errs, a.Store.Close())
	}
	return errors.Join(errs...)
}
