//go:build !js

package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/backend/file"
	"github.com/tabletopdb/tabletop/worker/rest"
	"github.com/tabletopdb/tabletop/worker/rest/auth"
)

// memoryData is the -data value that keeps nothing on disk.
const memoryData = ":memory:"

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
