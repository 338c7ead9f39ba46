package file_test

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/backend/file"
	"github.com/tabletopdb/tabletop/core/model"
)

// TestBackend_GroupCommitSharesSyncs has 16 writers commit at once under SyncAlways: every
// write is acknowledged, survives a reopen, and they took far fewer fsyncs than writes.
func TestBackend_GroupCommitSharesSyncs(t *testing.T) {
	const writers, each = 16, 25
	dir := t.TempDir()
	b := openFile(t, dir)
	s, err := core.Open(core.Options{Backend: b})
	if err != nil {
		t.Fatal(err)
	}
	s.CreateTable("grp")
	before := file.Syncs(b)
	var wg sync.WaitGroup
	errs := make(chan error, writers*each)
	for w := range writers {
		wg.Go(func() {
			for i := range each {
				e := &model.Entity{PartitionKey: fmt.Sprint(w), RowKey: fmt.Sprint(i)}
				if _, err := s.Apply("grp", core.Op{Kind: core.OpInsert, Entity: e}); err != nil {
					errs <- err
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	syncs := file.Syncs(b) - before
	if syncs > writers*each/2 {
		t.Fatalf("%d fsyncs for %d concurrent writes: commits do not share them", syncs, writers*each)
	}
	t.Logf("%d writes, %d fsyncs", writers*each, syncs)
	s.Close()
	s, err = core.Open(core.Options{Backend: openFile(t, dir)})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for w := range writers {
		for i := range each {
			if _, err := s.Get("grp", fmt.Sprint(w), fmt.Sprint(i)); err != nil {
				t.Fatalf("write (%d, %d) lost: %v", w, i, err)
			}
		}
	}
}

// TestBackend_GatherEndsWhenFewerCome: after an fsync that covered eight change sets,
// the next one waits for as many to gather, but a lone writer's sync still ends, at the
// gathering's deadline, and covers its write.
func TestBackend_GatherEndsWhenFewerCome(t *testing.T) {
	b := openFile(t, t.TempDir())
	defer b.Close()
	var last uint64
	for range 8 {
		seq, err := b.Write([]byte("grouped"))
		if err != nil {
			t.Fatal(err)
		}
		last = seq
	}
	if err := b.Sync(last); err != nil {
		t.Fatal(err)
	}
	seq, err := b.Write([]byte("alone"))
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- b.Sync(seq) }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a lone write's sync waits for a group that never comes")
	}
	if got := file.Syncs(b); got != 2 {
		t.Fatalf("%d fsyncs, want 2 (one per group)", got)
	}
}
