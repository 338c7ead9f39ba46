package kvlog_test

import (
	"errors"
	"testing"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/backend/kvlog"
	"github.com/tabletopdb/tabletop/core/backend/memory"
)

// countingKV counts the calls made to the KV it wraps.
type countingKV struct {
	*memory.KV
	gets, scans int
}

func (c *countingKV) Get(key string) ([]byte, error) {
	c.gets++
	return c.KV.Get(key)
}

func (c *countingKV) Scan(prefix string, fn func(string, []byte) error) error {
	c.scans++
	return c.KV.Scan(prefix, fn)
}

func TestBackend_Load(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		kv := &countingKV{KV: memory.NewKV()}
		s, err := core.Open(core.Options{Backend: kvlog.New(kv)})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.CreateTable("kept"); err != nil {
			t.Fatal(err)
		}
		s.Close()
		kv.gets, kv.scans = 0, 0
		s, err = core.Open(core.Options{Backend: kvlog.New(kv)})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		if _, err := s.Get("kept", "p", "r"); !errors.Is(err, core.ErrEntityNotFound) {
			t.Fatalf("Get on the reopened table: %v, want entity not found", err)
		}
		if kv.scans == 0 {
			t.Fatal("a store with a head was opened without reading its log")
		}
	})
	t.Run("OK/empty store reads only the head", func(t *testing.T) {
		kv := &countingKV{KV: memory.NewKV()}
		kv.Commit([]kvlog.Entry{{Key: "glue/other", Value: []byte("x")}}, nil) // the host's own keys beside the store's
		s, err := core.Open(core.Options{Backend: kvlog.New(kv)})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		if kv.gets != 1 || kv.scans != 0 {
			t.Fatalf("opening an empty store: %d gets and %d scans, want 1 and 0", kv.gets, kv.scans)
		}
	})
	t.Run("ErrHeadCorrupt", func(t *testing.T) {
		kv := memory.NewKV()
		kv.Commit([]kvlog.Entry{{Key: "head", Value: []byte("1 2")}}, nil)
		if _, err := core.Open(core.Options{Backend: kvlog.New(kv)}); !errors.Is(err, kvlog.ErrHeadCorrupt) {
			t.Fatalf("open with a corrupt head: %v, want %v", err, kvlog.ErrHeadCorrupt)
		}
	})
}
