package file_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/backend/file"
	"github.com/tabletopdb/tabletop/core/model"
)

// writeRows makes a store in dir holding table "first", then rows "r0000"… in table
// "dmg", one commit each, compacting after the first snapshotRows of them, and closes it.
func writeRows(t *testing.T, dir string, rows, snapshotRows int) {
	t.Helper()
	s, err := core.Open(core.Options{Backend: openFile(t, dir), CompactAfter: 1 << 30})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, name := range []string{"first", "dmg"} {
		if _, err := s.CreateTable(name); err != nil {
			t.Fatal(err)
		}
	}
	for i := range rows {
		if i == snapshotRows && snapshotRows > 0 {
			if err := s.Compact(); err != nil {
				t.Fatal(err)
			}
		}
		e := &model.Entity{PartitionKey: "p", RowKey: fmt.Sprintf("r%04d", i), Properties: []model.Property{
			{Name: "N", Value: model.Int64Value(int64(i))},
		}}
		if _, err := s.Apply("dmg", core.Op{Kind: core.OpInsert, Entity: e}); err != nil {
			t.Fatal(err)
		}
	}
}

// rowsIn opens the store in dir and returns which rows it holds.
func rowsIn(t *testing.T, dir string, rows int) (missing []string) {
	t.Helper()
	s, err := core.Open(core.Options{Backend: openFile(t, dir)})
	if err != nil {
		t.Fatalf("open after salvage: %v", err)
	}
	defer s.Close()
	for i := range rows {
		rk := fmt.Sprintf("r%04d", i)
		e, err := s.Get("dmg", "p", rk)
		if err != nil {
			missing = append(missing, rk)
		} else if n := e.Properties[0].Value.Int64(); n != int64(i) {
			t.Fatalf("row %s reads %d", rk, n)
		}
	}
	return missing
}

// changeSets returns the log's change-set frames (not its sync marks).
func changeSets(t *testing.T, dir string) []file.Frame {
	t.Helper()
	frames, err := file.LogFrames(filepath.Join(dir, "log"))
	if err != nil {
		t.Fatal(err)
	}
	var sets []file.Frame
	for _, f := range frames {
		if !f.Mark {
			sets = append(sets, f)
		}
	}
	return sets
}

func flipBit(t *testing.T, path string, off int64) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	b[off] ^= 0x10
	os.WriteFile(path, b, 0o644)
}

func putLength(t *testing.T, path string, off int64, n uint32) {
	t.Helper()
	b, _ := os.ReadFile(path)
	binary.LittleEndian.PutUint32(b[off:], n)
	os.WriteFile(path, b, 0o644)
}

func TestBackend_Damage(t *testing.T) {
	const rows = 400
	cases := []struct {
		name     string
		snapshot int                                   // rows in the snapshot
		damage   func(t *testing.T, dir string) string // damages a file, returns its name
		lost     int                                   // rows Salvage cannot keep
	}{
		{"BitFlipMidLog", 0, func(t *testing.T, dir string) string {
			f := changeSets(t, dir)[rows/2]
			flipBit(t, filepath.Join(dir, "log"), f.Offset+f.Size/2)
			return "log"
		}, 1},
		{"BadLengthMidLog", 0, func(t *testing.T, dir string) string {
			f := changeSets(t, dir)[rows/2]
			putLength(t, filepath.Join(dir, "log"), f.Offset, uint32(f.Size)+100)
			return "log"
		}, 1},
		{"BitFlipLogStart", 0, func(t *testing.T, dir string) string {
			flipBit(t, filepath.Join(dir, "log"), 12)
			return "log"
		}, 0}, // the first change set creates table "first": every row is kept
		{"BadLengthLogStart", 0, func(t *testing.T, dir string) string {
			putLength(t, filepath.Join(dir, "log"), 0, 0xfffffff0)
			return "log"
		}, 0},
		{"BitFlipSnapshot", rows / 2, func(t *testing.T, dir string) string {
			st, _ := os.Stat(filepath.Join(dir, "snapshot"))
			flipBit(t, filepath.Join(dir, "snapshot"), st.Size()/2)
			return "snapshot"
		}, 1},
		{"SnapshotCutShort", rows / 2, func(t *testing.T, dir string) string {
			path := filepath.Join(dir, "snapshot")
			st, _ := os.Stat(path)
			os.Truncate(path, st.Size()-13)
			return "snapshot"
		}, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			writeRows(t, dir, rows, c.snapshot)
			name := c.damage(t, dir)
			before := readFiles(t, dir)
			b := openFile(t, dir)
			_, err := core.Open(core.Options{Backend: b})
			b.Close()
			var de *file.DamageError
			if !errors.Is(err, file.ErrDamaged) || !errors.As(err, &de) {
				t.Fatalf("open of a damaged %s: %v, want ErrDamaged", name, err)
			}
			if de.Path != filepath.Join(dir, name) {
				t.Fatalf("error names %s, want the %s", de.Path, name)
			}
			if after := readFiles(t, dir); !bytes.Equal(after[name], before[name]) {
				t.Fatalf("the refused open changed the %s", name)
			}
			report, err := file.Salvage(dir)
			if err != nil {
				t.Fatal(err)
			}
			moved := map[string]string{"log": report.Log.MovedTo, "snapshot": report.Snapshot.MovedTo}[name]
			if aside, _ := os.ReadFile(moved); !bytes.Equal(aside, before[name]) {
				t.Fatalf("the damaged %s was not kept aside as it was (%q)", name, moved)
			}
			if missing := rowsIn(t, dir, rows); len(missing) != c.lost {
				t.Fatalf("after salvage %d rows are missing (%v), want %d", len(missing), missing, c.lost)
			}
		})
	}
}

func readFiles(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	for _, name := range []string{"log", "snapshot"} {
		files[name], _ = os.ReadFile(filepath.Join(dir, name))
	}
	return files
}

// TestBackend_TornTailVersusDamage: in a log left by a crash (no clean close), a bad last
// change set is a torn tail, dropped; a bad change set that a later group's sync mark
// follows is damage, refused.
func TestBackend_TornTailVersusDamage(t *testing.T) {
	live := t.TempDir()
	s, err := core.Open(core.Options{Backend: openFile(t, live), CompactAfter: 1 << 30})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.CreateTable("dmg")
	for i := range 20 {
		e := &model.Entity{PartitionKey: "p", RowKey: fmt.Sprintf("r%04d", i), Properties: []model.Property{{Name: "N", Value: model.Int64Value(int64(i))}}}
		if _, err := s.Apply("dmg", core.Op{Kind: core.OpInsert, Entity: e}); err != nil {
			t.Fatal(err)
		}
	}
	crashed := func(t *testing.T, set int) string { // a copy of the files as a crash leaves them
		dir := t.TempDir()
		log, _ := os.ReadFile(filepath.Join(live, "log"))
		os.WriteFile(filepath.Join(dir, "log"), log, 0o644)
		sets := changeSets(t, dir)
		f := sets[len(sets)+set]
		flipBit(t, filepath.Join(dir, "log"), f.Offset+f.Size-3)
		return dir
	}
	t.Run("TornTail", func(t *testing.T) {
		dir := crashed(t, -1)
		if missing := rowsIn(t, dir, 20); len(missing) != 1 || missing[0] != "r0019" {
			t.Fatalf("torn last change set: missing %v, want r0019 only", missing)
		}
	})
	t.Run("ErrDamaged", func(t *testing.T) {
		dir := crashed(t, -2)
		b := openFile(t, dir)
		defer b.Close()
		if _, err := core.Open(core.Options{Backend: b}); !errors.Is(err, file.ErrDamaged) {
			t.Fatalf("bad change set before a synced one: %v, want ErrDamaged", err)
		}
	})
}
