package core_test

import (
	"errors"
	"io"
	"sync"
	"testing"
	"time"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/model"
)

// gatedBackend is a core.GroupCommitter whose Sync waits until the test opens its gate,
// then returns the error the test set, failing the backend until Discard.
type gatedBackend struct {
	mu      sync.Mutex
	written uint64
	synced  uint64
	failed  bool
	gate    chan struct{}
	syncing chan uint64 // receives each seq Sync is called with
	err     error
}

func newGated() *gatedBackend {
	return &gatedBackend{gate: make(chan struct{}), syncing: make(chan uint64, 16)}
}

func (g *gatedBackend) Load(func(io.Reader) error, func([]byte) error) error { return nil }
func (g *gatedBackend) Append(cs []byte) error                               { panic("Append called on a GroupCommitter") }
func (g *gatedBackend) Compact(func(io.Writer) error) error                  { return nil }
func (g *gatedBackend) Close() error                                         { return nil }

func (g *gatedBackend) Write(cs []byte) (uint64, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.written++
	return g.written, nil
}

func (g *gatedBackend) Sync(seq uint64) error {
	g.syncing <- seq
	<-g.gate
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.err != nil {
		g.failed = true
		return g.err
	}
	g.synced = max(g.synced, seq)
	return nil
}

func (g *gatedBackend) Discard() (uint64, bool, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	failed := g.failed
	if failed {
		g.written, g.failed = g.synced, false
	}
	return g.synced, failed, nil
}

// updateAsync inserts entity (p, rk) in its own goroutine and returns Update's result.
func updateAsync(s *core.Store, rk string) chan error {
	done := make(chan error, 1)
	go func() {
		_, err := s.Apply("grp", core.Op{Kind: core.OpInsert, Entity: &model.Entity{PartitionKey: "p", RowKey: rk}})
		done <- err
	}()
	return done
}

func TestStore_GroupCommit(t *testing.T) {
	open := func(t *testing.T) (*core.Store, *gatedBackend) {
		g := newGated()
		s, err := core.Open(core.Options{Backend: g})
		if err != nil {
			t.Fatal(err)
		}
		close(g.gate) // the table's creation syncs at once
		if _, err := s.CreateTable("grp"); err != nil {
			t.Fatal(err)
		}
		<-g.syncing
		g.gate = make(chan struct{})
		return s, g
	}
	t.Run("OK", func(t *testing.T) {
		s, g := open(t)
		done := updateAsync(s, "a")
		<-g.syncing // the write is in the log and waits for its sync, outside the write lock
		if _, err := s.Get("grp", "p", "a"); err != nil {
			t.Fatalf("a read during the sync: %v", err)
		}
		other := updateAsync(s, "b") // a second writer is not held up by the first one's sync
		<-g.syncing
		select {
		case err := <-done:
			t.Fatalf("write acknowledged (%v) before its sync", err)
		case <-time.After(20 * time.Millisecond):
		}
		close(g.gate)
		if err := errors.Join(<-done, <-other); err != nil {
			t.Fatal(err)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("ErrSync", func(t *testing.T) {
		s, g := open(t)
		boom := errors.New("disk on fire")
		g.err = boom
		done := updateAsync(s, "a")
		<-g.syncing
		close(g.gate)
		if err := <-done; !errors.Is(err, boom) {
			t.Fatalf("write whose sync failed: %v, want %v", err, boom)
		}
		if _, err := s.Get("grp", "p", "a"); !errors.Is(err, core.ErrEntityNotFound) {
			t.Fatalf("write whose sync failed is still read: %v", err)
		}
		g.err = nil // the disk is back: writes resume without a reopen
		b := updateAsync(s, "b")
		<-g.syncing
		if err := <-b; err != nil {
			t.Fatalf("write after the failure: %v", err)
		}
		if _, err := s.Get("grp", "p", "b"); err != nil {
			t.Fatalf("write after the failure: %v", err)
		}
		if err := <-updateAsync(s, "a"); err != nil {
			t.Fatalf("insert of the undone entity: %v", err)
		}
		<-g.syncing
		s.Close()
	})
	t.Run("CloseWaitsForSync", func(t *testing.T) {
		s, g := open(t)
		done := updateAsync(s, "a")
		<-g.syncing
		closed := make(chan error, 1)
		go func() { closed <- s.Close() }()
		select {
		case <-closed:
			t.Fatal("Close returned while a commit waited for its sync")
		case <-time.After(20 * time.Millisecond):
		}
		close(g.gate)
		if err := errors.Join(<-done, <-closed); err != nil {
			t.Fatal(err)
		}
	})
}
