package file

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// FuzzLoad: whatever the log holds, Load replays a prefix of it and either cuts a torn
// tail or refuses damage, leaving the file unchanged; it never panics.
func FuzzLoad(f *testing.F) {
	f.Add(appendMark(appendFrame(nil, []byte("*1\r\n$1\r\nx\r\n")), 0))
	f.Add(appendFrame(appendMark(appendFrame(nil, []byte("*0\r\n")), 20), []byte("*0\r\n"))[:30])
	f.Fuzz(func(t *testing.T, log []byte) {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, "log"), log, 0o644)
		b, err := Open(dir, Options{Sync: SyncNever})
		if err != nil {
			t.Fatal(err)
		}
		defer b.Close()
		var replayed int
		err = b.Load(func(io.Reader) error { return nil }, func(cs []byte) error { replayed += frameHeader + len(cs); return nil })
		after, _ := os.ReadFile(filepath.Join(dir, "log"))
		switch {
		case errors.Is(err, ErrDamaged):
			if !bytes.Equal(after, log) {
				t.Fatal("a refused log was changed")
			}
		case err != nil:
			t.Fatal(err)
		case !bytes.HasPrefix(log, after):
			t.Fatal("the kept log is not a prefix of the log")
		}
	})
}

// FuzzSnapshot: a stream of RESP commands written as a snapshot file reads back exactly,
// and any damage to the file is refused or read back as written.
func FuzzSnapshot(f *testing.F) {
	f.Add([]byte("*3\r\n$3\r\nset\r\n$1\r\nk\r\n$1\r\nv\r\n*2\r\n$3\r\ndel\r\n$1\r\nk\r\n"), 5, byte(1))
	f.Fuzz(func(t *testing.T, stream []byte, at int, flip byte) {
		var file bytes.Buffer
		if err := writeSnapshotTo(&file, func(w io.Writer) error { _, err := w.Write(stream); return err }); err != nil {
			return // not a whole RESP stream: the writer refuses it
		}
		data := file.Bytes()
		if got := readSnapshot(t, data); !bytes.Equal(got, stream) {
			t.Fatalf("read back %q, wrote %q", got, stream)
		}
		data[uint(at)%uint(len(data))] ^= flip | 1
		if unframed(data) {
			return // damage that made it look like a snapshot from before frames
		}
		got := readSnapshot(t, data)
		if got != nil && !bytes.Equal(got, stream) {
			t.Fatalf("a damaged snapshot read as %q, wrote %q", got, stream)
		}
	})
}

// readSnapshot reads a snapshot file's content, nil if it is refused.
func readSnapshot(t *testing.T, data []byte) []byte {
	path := filepath.Join(t.TempDir(), "snapshot")
	os.WriteFile(path, data, 0o644)
	f, _ := os.Open(path)
	defer f.Close()
	r, err := openSnapshot(path, f, int64(len(data)))
	if err != nil {
		return nil
	}
	got, err := io.ReadAll(r)
	if err != nil {
		return nil
	}
	return got
}

// FuzzSalvage: whatever a directory's files hold, Salvage leaves a log and snapshot that
// open without damage.
func FuzzSalvage(f *testing.F) {
	f.Add(appendMark(appendFrame(nil, []byte("*1\r\n$1\r\nx\r\n")), 0), []byte(snapMagic))
	f.Fuzz(func(t *testing.T, log, snapshot []byte) {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, "log"), log, 0o644)
		os.WriteFile(filepath.Join(dir, "snapshot"), snapshot, 0o644)
		if _, err := Salvage(dir); err != nil {
			t.Fatal(err)
		}
		b, err := Open(dir, Options{Sync: SyncNever})
		if err != nil {
			t.Fatal(err)
		}
		defer b.Close()
		err = b.Load(func(r io.Reader) error { _, err := io.Copy(io.Discard, r); return err }, func([]byte) error { return nil })
		if errors.Is(err, ErrDamaged) && !unframed(snapshot) {
			t.Fatalf("damage after salvage: %v", err)
		}
	})
}
