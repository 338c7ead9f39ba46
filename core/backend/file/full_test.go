//go:build linux

package file_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/backend/backendtest"
	"github.com/tabletopdb/tabletop/core/backend/file"
	"github.com/tabletopdb/tabletop/core/model"
)

// fullDisk is a store on a small file system, written by several writers until the
// disk is full, watched by a reader of the writes in flight.
type fullDisk struct {
	store    *core.Store
	mu       sync.Mutex
	acked    []string
	refused  []string
	seen     map[string]bool // keys the reader found while their write was in flight (later acknowledged or not)
	inflight sync.Map        // writer → key being written
	states   []error
}

func TestBackend_DiskFull(t *testing.T) {
	for _, reserve := range []bool{true, false} {
		t.Run(map[bool]string{true: "Reserved", false: "Unreserved"}[reserve], func(t *testing.T) {
			mnt := backendtest.MountSmall(t, "4m")
			filler := filepath.Join(mnt, "filler")
			if err := os.WriteFile(filler, make([]byte, 2<<20), 0o644); err != nil {
				t.Fatal(err)
			}
			d := &fullDisk{seen: map[string]bool{}}
			dir := filepath.Join(mnt, "acct")
			b, err := file.Open(dir, file.Options{OnWriteState: func(err error) {
				d.mu.Lock()
				d.states = append(d.states, err)
				d.mu.Unlock()
			}})
			if err != nil {
				t.Fatal(err)
			}
			if !reserve {
				file.NoReservation(b)
			}
			if d.store, err = core.Open(core.Options{Backend: b, CompactAfter: 1 << 30}); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { d.store.Close() })
			d.store.CreateTable("full")
			d.fill(t, 4)
			if seen := d.seenRefused(); reserve && len(seen) > 0 {
				t.Fatalf("refused writes were read while in flight: %v", seen)
			}
			t.Logf("%d writes acknowledged, %d refused, %d refused ones read in flight", len(d.acked), len(d.refused), len(d.seenRefused()))
			d.checkRefused(t)
			os.Remove(filler) // space is back: writes resume without a reopen
			if err := d.insert("after-free"); err != nil {
				t.Fatalf("write once space is freed: %v", err)
			}
			d.checkStates(t, reserve)
			d.store.Close()
			d.reopen(t, dir)
		})
	}
}

// fill runs writers until each has had a few writes refused.
func (d *fullDisk) fill(t *testing.T, writers int) {
	stop := make(chan struct{})
	var readers sync.WaitGroup
	readers.Add(1)
	go func() { defer readers.Done(); d.watch(stop) }()
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			refused := 0
			for i := 0; refused < 5 && i < 100000; i++ {
				key := fmt.Sprintf("w%d-%06d", w, i)
				d.inflight.Store(w, key)
				err := d.insert(key)
				d.inflight.Delete(w)
				d.mu.Lock()
				if err == nil {
					d.acked = append(d.acked, key)
				} else {
					if !errors.Is(err, core.ErrNoSpace) {
						t.Errorf("refused write %s: %v, want ErrNoSpace", key, err)
					}
					d.refused = append(d.refused, key)
					refused++
				}
				d.mu.Unlock()
			}
		}()
	}
	wg.Wait()
	close(stop)
	readers.Wait()
	if len(d.refused) == 0 || len(d.acked) == 0 {
		t.Fatalf("%d writes acknowledged, %d refused: the disk never filled", len(d.acked), len(d.refused))
	}
}

// watch reads the keys being written until stop, noting those found.
func (d *fullDisk) watch(stop chan struct{}) {
	for {
		select {
		case <-stop:
			return
		default:
		}
		d.inflight.Range(func(_, key any) bool {
			if _, err := d.store.Get("full", "p", key.(string)); err == nil {
				d.mu.Lock()
				d.seen[key.(string)] = true
				d.mu.Unlock()
			}
			return true
		})
	}
}

// seenRefused returns the refused writes that the reader found.
func (d *fullDisk) seenRefused() []string {
	var seen []string
	for _, key := range d.refused {
		if d.seen[key] {
			seen = append(seen, key)
		}
	}
	return seen
}

func (d *fullDisk) insert(key string) error {
	e := &model.Entity{PartitionKey: "p", RowKey: key, Properties: []model.Property{
		{Name: "Pad", Value: model.StringValue(strings.Repeat("x", 2000))},
	}}
	_, err := d.store.Apply("full", core.Op{Kind: core.OpInsert, Entity: e})
	return err
}

// checkRefused checks that no refused write can be read, and every acknowledged one can.
func (d *fullDisk) checkRefused(t *testing.T) {
	t.Helper()
	for _, key := range d.refused {
		if _, err := d.store.Get("full", "p", key); !errors.Is(err, core.ErrEntityNotFound) {
			t.Fatalf("refused write %s reads: %v", key, err)
		}
	}
	for _, key := range d.acked {
		if _, err := d.store.Get("full", "p", key); err != nil {
			t.Fatalf("acknowledged write %s: %v", key, err)
		}
	}
}

// checkStates checks that OnWriteState heard of the full disk, then of its end: once
// when space is reserved (a nearly full disk refuses writes until a margin is free);
// without reservation, writes that still fit may work in between.
func (d *fullDisk) checkStates(t *testing.T, reserved bool) {
	t.Helper()
	d.mu.Lock()
	defer d.mu.Unlock()
	n := len(d.states)
	ok := n >= 2 && n%2 == 0 && (!reserved || n == 2)
	for i := 0; ok && i < n; i += 2 {
		ok = errors.Is(d.states[i], core.ErrNoSpace) && d.states[i+1] == nil
	}
	if !ok {
		t.Fatalf("write states %v, want [ErrNoSpace, nil]", d.states)
	}
}

// reopen opens the store again and checks every acknowledged write, and no refused one.
func (d *fullDisk) reopen(t *testing.T, dir string) {
	t.Helper()
	b, err := file.Open(dir, file.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if d.store, err = core.Open(core.Options{Backend: b}); err != nil {
		t.Fatal(err)
	}
	defer d.store.Close()
	d.acked = append(d.acked, "after-free")
	d.checkRefused(t)
}
