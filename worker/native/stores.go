//go:build !js

package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/backend/file"
	"github.com/tabletopdb/tabletop/worker/rest"
	"github.com/tabletopdb/tabletop/worker/rest/auth"
)

// memoryData is the -data value that keeps nothing on disk.
const memoryData = ":memory:"

// defaultRetention is how long deletion records are kept unless -retention says otherwise.
const defaultRetention = 7 * 24 * time.Hour

// purgeInterval is how often a running server drops expired deletion records, besides
// when a store opens and a few with each new deletion.
const purgeInterval = time.Hour

// stores are the open stores of the accounts served.
type stores struct {
	accounts []*rest.Account
}

// openStores opens one store per account with opts: in memory for ":memory:", else in
// the directory data/{account}, created if needed. Each drops its expired deletion
// records as it opens.
func openStores(data string, accts []auth.Account, opts core.Options) (*stores, error) {
	s := &stores{}
	for _, a := range accts {
		st, err := openStore(data, a.Name, opts)
		if err != nil {
			s.close()
			return nil, err
		}
		s.accounts = append(s.accounts, &rest.Account{Account: a, Store: st})
	}
	return s, nil
}

func openStore(data, account string, opts core.Options) (*core.Store, error) {
	if data == memoryData {
		return core.Open(opts)
	}
	dir := filepath.Join(data, account)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("create data directory: %w", err)
	}
	b, err := file.Open(dir, file.Options{})
	if err != nil {
		return nil, fmt.Errorf("open data directory %s: %w", dir, err)
	}
	opts.Backend = b
	st, err := core.Open(opts)
	if err != nil {
		b.Close()
		return nil, fmt.Errorf("open store in %s: %w", dir, err)
	}
	if _, err := st.PurgeDeletions(); err != nil {
		st.Close()
		return nil, fmt.Errorf("purge deletion records in %s: %w", dir, err)
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

// purgeEvery drops the expired deletion records of every store each interval, reporting
// failures to fail, until ctx is done or the returned stop is called; stop waits for a
// purge under way, so the stores may be closed after it.
func (s *stores) purgeEvery(ctx context.Context, interval time.Duration, fail func(error)) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(interval)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			for _, a := range s.accounts {
				if _, err := a.Store.PurgeDeletions(); err != nil {
					fail(fmt.Errorf("account %s: %w", a.Name, err))
				}
			}
		}
	}()
	return func() { cancel(); <-done }
}
