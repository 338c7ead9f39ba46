//go:build !js

package native

import (
	"context"
	"errors"
	"fmt"
	"io"
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
// records as it opens. When writing to a store's files starts to fail, and when it
// works again, a line says so on logw, whatever the request log's setting.
func openStores(data string, accts []auth.Account, opts core.Options, logw io.Writer) (*stores, error) {
	s := &stores{}
	for _, a := range accts {
		st, err := openStore(data, a.Name, opts, logw)
		if err != nil {
			s.close()
			return nil, err
		}
		s.accounts = append(s.accounts, &rest.Account{Account: a, Store: st})
	}
	return s, nil
}

func openStore(data, account string, opts core.Options, logw io.Writer) (*core.Store, error) {
	if data == memoryData {
		return core.Open(opts)
	}
	dir := filepath.Join(data, account)
	b, err := file.Open(dir, file.Options{OnWriteState: writeStateLogger(logw, dir)})
	if err != nil {
		return nil, fmt.Errorf("open data directory %s: %w", dir, err)
	}
	opts.Backend = b
	st, err := core.Open(opts)
	if errors.Is(err, file.ErrDamaged) {
		err = fmt.Errorf("%w\nThe server does not open a damaged store. To keep every intact record and move the damaged file aside, stop here and run: tabletop salvage %s", err, dir)
	}
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

// writeStateLogger returns the file.Options.OnWriteState of the store in dir: a line on
// logw when its writes start to fail, naming the cause, and one when they work again.
func writeStateLogger(logw io.Writer, dir string) func(error) {
	return func(err error) {
		switch {
		case err == nil:
			fmt.Fprintf(logw, "tabletop: %s: writes work again\n", dir)
		case errors.Is(err, core.ErrNoSpace):
			fmt.Fprintf(logw, "tabletop: %s: writes refused, the disk is full (%v); reads go on, and writes resume by themselves once space is freed\n", dir, err)
		default:
			fmt.Fprintf(logw, "tabletop: %s: writes failing: %v; reads go on\n", dir, err)
		}
	}
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
