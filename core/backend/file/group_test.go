package file_test

import (
	"fmt"
	"sync"
	"testing"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/backend/file"
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
				e := &core.Entity{PartitionKey: fmt.Sprint(w), RowKey: fmt.Sprint(i)}
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
