package memory_test

import (
	"errors"
	"testing"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/backend/backendtest"
	"github.com/tabletopdb/tabletop/core/backend/kvlog"
	"github.com/tabletopdb/tabletop/core/backend/memory"
	"github.com/tabletopdb/tabletop/core/model"
)

func TestBackend_Conformance(t *testing.T) {
	backendtest.Run(t, func(t *testing.T) func() core.Backend {
		kv := memory.NewKV()
		return func() core.Backend { return kvlog.New(kv) }
	})
}

func TestBackend_FailedCommitAppliesNothing(t *testing.T) {
	kv := memory.NewKV()
	s, err := core.Open(core.Options{Backend: kvlog.New(kv)})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.CreateTable("faults")
	boom := errors.New("disk full")
	kv.FailCommit = func([]kvlog.Entry, []string) error { return boom }
	_, err = s.Apply("faults", core.Op{Kind: core.OpInsert, Entity: &model.Entity{PartitionKey: "p", RowKey: "r"}})
	if !errors.Is(err, boom) {
		t.Fatalf("err = %v, want the backend's", err)
	}
	if _, err := s.Get("faults", "p", "r"); !errors.Is(err, core.ErrEntityNotFound) {
		t.Fatalf("failed write is visible: %v", err)
	}
	kv.FailCommit = nil
	if _, err := s.Apply("faults", core.Op{Kind: core.OpInsert, Entity: &model.Entity{PartitionKey: "p", RowKey: "r"}}); err != nil {
		t.Fatalf("store unusable after a failed commit: %v", err)
	}
}

func TestBackend_CompactionKeepsStorageProportional(t *testing.T) {
	kv := memory.NewKV()
	s, err := core.Open(core.Options{Backend: kvlog.New(kv), CompactAfter: 64 << 10})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.CreateTable("churn")
	big := model.StringValue(string(make([]byte, 1000)))
	for i := range 2000 {
		e := &model.Entity{PartitionKey: "p", RowKey: "same", Properties: []model.Property{{Name: "V", Value: big}, {Name: "N", Value: model.Int32Value(int32(i))}}}
		if _, err := s.Apply("churn", core.Op{Kind: core.OpInsertOrReplace, Entity: e}); err != nil {
			t.Fatal(err)
		}
	}
	if n := kv.Size(); n > 200<<10 {
		t.Fatalf("storage holds %d bytes for one 1 KB entity after 2000 rewrites", n)
	}
}

func TestBackend_FailedCompactionKeepsTheWrite(t *testing.T) {
	kv := memory.NewKV()
	s, err := core.Open(core.Options{Backend: kvlog.New(kv), CompactAfter: 1})
	if err != nil {
		t.Fatal(err)
	}
	s.CreateTable("compact")
	boom := errors.New("quota exceeded")
	kv.FailCommit = func(puts []kvlog.Entry, deletes []string) error {
		if len(deletes) > 0 { // only a compaction deletes
			return boom
		}
		return nil
	}
	if _, err := s.Apply("compact", core.Op{Kind: core.OpInsert, Entity: &model.Entity{PartitionKey: "p", RowKey: "r"}}); err != nil {
		t.Fatalf("a committed write failed because compaction did: %v", err)
	}
	if !errors.Is(s.CompactError(), boom) {
		t.Fatalf("CompactError = %v, want the compaction's failure", s.CompactError())
	}
	s.Close()
	kv.FailCommit = nil
	s, err = core.Open(core.Options{Backend: kvlog.New(kv)})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Get("compact", "p", "r"); err != nil {
		t.Fatalf("the write is lost after a failed compaction: %v", err)
	}
}
