package core_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/backend/kvlog"
	"github.com/tabletopdb/tabletop/core/backend/memory"
	"github.com/tabletopdb/tabletop/core/model"
)

// TestStore_FailedCompactionWaits: a compaction that fails (a full disk, say) is tried
// again once the log has grown by CompactAfter more, not after every commit; writes go on.
func TestStore_FailedCompactionWaits(t *testing.T) {
	kv := memory.NewKV()
	attempts := 0
	kv.FailCommit = func(puts []kvlog.Entry, deletes []string) error {
		if len(deletes) == 0 {
			return nil // an append
		}
		attempts++
		return errors.New("no room for a snapshot")
	}
	const compactAfter = 4 << 10
	s, err := core.Open(core.Options{Backend: kvlog.New(kv), CompactAfter: compactAfter})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.CreateTable("grow")
	pad := model.StringValue(strings.Repeat("x", 400))
	const writes = 400 // about 200 KiB of change sets
	for i := range writes {
		e := &model.Entity{PartitionKey: "p", RowKey: fmt.Sprint(i), Properties: []model.Property{{Name: "Pad", Value: pad}}}
		if _, err := s.Apply("grow", core.Op{Kind: core.OpInsert, Entity: e}); err != nil {
			t.Fatalf("write %d while compaction fails: %v", i, err)
		}
	}
	if s.CompactError() == nil {
		t.Fatal("CompactError does not report the failed compaction")
	}
	if max := writes * 500 / compactAfter; attempts == 0 || attempts > max {
		t.Fatalf("%d compactions tried for %d writes, want 1 to %d", attempts, writes, max)
	}
}
