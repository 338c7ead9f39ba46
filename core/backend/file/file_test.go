package file_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/backend/backendtest"
	"github.com/tabletopdb/tabletop/core/backend/file"
)

func openFile(t *testing.T, dir string) *file.Backend {
	t.Helper()
	b, err := file.Open(dir, file.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestBackend_Conformance(t *testing.T) {
	backendtest.Run(t, func(t *testing.T) func() core.Backend {
		dir := t.TempDir()
		return func() core.Backend { return openFile(t, dir) }
	})
}

func TestBackend_TornTailIsDropped(t *testing.T) {
	dir := t.TempDir()
	s, err := core.Open(core.Options{Backend: openFile(t, dir)})
	if err != nil {
		t.Fatal(err)
	}
	s.CreateTable("torn")
	want, _ := s.Apply("torn", core.Op{Kind: core.OpInsert, Entity: backendtest.AllTypes("p", "kept")})
	s.Close()
	// A crash mid-append leaves a partial record: a header promising more than follows.
	f, _ := os.OpenFile(filepath.Join(dir, "log"), os.O_WRONLY|os.O_APPEND, 0)
	f.Write([]byte{200, 0, 0, 0, 1, 2, 3, 4, 'x'})
	f.Close()
	s, err = core.Open(core.Options{Backend: openFile(t, dir)})
	if err != nil {
		t.Fatalf("reopen after torn write: %v", err)
	}
	got, err := s.Get("torn", "p", "kept")
	if err != nil || got.ETag() != want.ETag() {
		t.Fatalf("entity before the torn record: %v %v", got, err)
	}
	// New writes land after the last good record and survive another reopen.
	if _, err := s.Apply("torn", core.Op{Kind: core.OpInsert, Entity: backendtest.AllTypes("p", "new")}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s, err = core.Open(core.Options{Backend: openFile(t, dir)})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Get("torn", "p", "new"); err != nil {
		t.Fatalf("write after truncation lost: %v", err)
	}
}

func TestBackend_CorruptRecordStopsReplay(t *testing.T) {
	dir := t.TempDir()
	s, _ := core.Open(core.Options{Backend: openFile(t, dir)})
	s.CreateTable("crc")
	s.Close()
	f, _ := os.OpenFile(filepath.Join(dir, "log"), os.O_WRONLY|os.O_APPEND, 0)
	f.Write([]byte{3, 0, 0, 0, 9, 9, 9, 9, 'b', 'a', 'd'}) // complete, wrong checksum
	f.Close()
	s, err := core.Open(core.Options{Backend: openFile(t, dir)})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	err = s.View(func(tx *core.Tx) error {
		_, err := tx.Table("crc")
		return err
	})
	if err != nil {
		t.Fatalf("records before the corrupt one were not replayed: %v", err)
	}
}

func TestBackend_SecondOpenIsRefused(t *testing.T) {
	dir := t.TempDir()
	b := openFile(t, dir)
	defer b.Close()
	if _, err := file.Open(dir, file.Options{}); !errors.Is(err, file.ErrLocked) {
		t.Fatalf("second open: %v, want ErrLocked", err)
	}
}
