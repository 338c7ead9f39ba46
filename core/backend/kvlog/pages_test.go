package kvlog_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/backend/kvlog"
	"github.com/tabletopdb/tabletop/core/backend/memory"
	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/core/stored"
)

// pagedStore fills a store over kv with n entities of about 200 bytes in table "things",
// compacts it (so that the snapshot is cut into chunks), writes updates after the
// snapshot, and closes it. It returns what a full read of the table gives.
func pagedStore(t *testing.T, kv kvlog.KV, n, updates int) map[string]string {
	return filledStore(t, kv, n, updates, true)
}

// filledStore is pagedStore, with no compaction unless compact: the log holds everything.
func filledStore(t *testing.T, kv kvlog.KV, n, updates int, compact bool) map[string]string {
	t.Helper()
	s, err := core.Open(core.Options{Backend: kvlog.New(kv)})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.CreateTable("things"); err != nil {
		t.Fatal(err)
	}
	put := func(i int, v string) {
		e := &model.Entity{PartitionKey: fmt.Sprintf("p%02d", i%10), RowKey: fmt.Sprintf("r%05d", i), Properties: []model.Property{{Name: "v", Value: model.StringValue(v)}}}
		if _, err := s.Apply("things", core.Op{Kind: core.OpInsertOrReplace, Entity: e}); err != nil {
			t.Fatal(err)
		}
	}
	for i := 0; i < n; i++ {
		put(i, strings.Repeat("x", 180))
	}
	if compact {
		if err := s.Compact(); err != nil {
			t.Fatal(err)
		}
	}
	for i := 0; i < updates; i++ {
		put(i*7%n, fmt.Sprintf("updated %d", i))
	}
	got := tableContents(t, s, nil)
	if len(got) != n {
		t.Fatalf("the store holds %d entities, want %d", len(got), n)
	}
	return got
}

// tableContents reads table "things" in full, through b.Run when b is given.
func tableContents(t *testing.T, s *core.Store, b *kvlog.Backend) map[string]string {
	t.Helper()
	var out map[string]string
	read := func() error {
		out = map[string]string{}
		return s.View(func(tx *core.Tx) error {
			return tx.Scan("things", stored.WholeTable, func(e *model.Entity) bool {
				out[e.PartitionKey+"/"+e.RowKey] = e.Properties[0].Value.Str()
				return true
			})
		})
	}
	var err error
	if b != nil {
		err = b.Run(s, read)
	} else {
		err = read()
	}
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestBackend_Partial(t *testing.T) {
	kv := &countingKV{KV: memory.NewKV()}
	want := pagedStore(t, kv, 3000, 200)
	chunks := 0
	kv.Scan("page/", func(string, []byte) error { chunks++; return nil })
	if chunks < 8 {
		t.Fatalf("the store was cut into %d pages, want at least 8", chunks)
	}
	kv.gets, kv.scans = 0, 0
	s, b := openPartial(t, kv)

	var got *model.Entity
	err := b.Run(s, func() (err error) {
		got, err = s.Get("things", "p07", "r00007")
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if v := got.Properties[0].Value.Str(); v != want["p07/r00007"] {
		t.Fatalf("point read after a partial open: %q, want %q", v, want["p07/r00007"])
	}
	// The head, the directory, and the pages of the table record and of the entity.
	if kv.gets > 5 {
		t.Fatalf("a point read after a partial open read %d values, want the head, the directory and a few pages", kv.gets)
	}
	if got := tableContents(t, s, b); len(got) != len(want) {
		t.Fatalf("a full read after a partial open: %d entities, want %d", len(got), len(want))
	} else {
		for k, v := range want {
			if got[k] != v {
				t.Fatalf("%s: %q, want %q", k, got[k], v)
			}
		}
	}

	// A write, a compaction once every range is resident, and a partial open again.
	e := &model.Entity{PartitionKey: "p00", RowKey: "new", Properties: []model.Property{{Name: "v", Value: model.StringValue("w")}}}
	if err := b.Run(s, func() error { _, err := s.Apply("things", core.Op{Kind: core.OpInsert, Entity: e}); return err }); err != nil {
		t.Fatal(err)
	}
	if err := s.Compact(); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s, b = openPartial(t, kv)
	want["p00/new"] = "w"
	if got := tableContents(t, s, b); len(got) != len(want) || got["p00/new"] != "w" {
		t.Fatalf("after a compaction of the partial store: %d entities (new: %q), want %d", len(got), got["p00/new"], len(want))
	}
}

// A store with no pages yet: its log, small, is loaded whole at the first need.
func TestBackend_Partial_logOnly(t *testing.T) {
	kv := memory.NewKV()
	want := filledStore(t, kv, 500, 50, false)
	s, b := openPartial(t, kv)
	var got *model.Entity
	if err := b.Run(s, func() (err error) { got, err = s.Get("things", "p03", "r00003"); return err }); err != nil {
		t.Fatal(err)
	}
	if v := got.Properties[0].Value.Str(); v != want["p03/r00003"] {
		t.Fatalf("point read: %q, want %q", v, want["p03/r00003"])
	}
	if got := tableContents(t, s, b); len(got) != len(want) || got["p07/r00007"] != want["p07/r00007"] {
		t.Fatalf("full read: %d entities, want %d", len(got), len(want))
	}
	if err := b.CompactPages(s); err != nil {
		t.Fatalf("the first compaction of a partial store with no pages: %v", err)
	}
	if dir, _ := kv.Get("pages"); dir == nil || b.LogBytes() != 0 {
		t.Fatalf("after the first compaction: directory %q, %d bytes of log", dir, b.LogBytes())
	}
}

func TestBackend_Partial_legacySnapshot(t *testing.T) {
	kv := memory.NewKV()
	want := pagedStore(t, kv, 300, 5)
	toLegacy(kv)
	s, b := openPartial(t, kv)
	if got := tableContents(t, s, b); len(got) != len(want) {
		t.Fatalf("%d entities, want %d", len(got), len(want))
	}
	// The first compaction writes pages, and a full open reads them.
	if err := b.CompactPages(s); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if _, err := kv.Get("pages"); err != nil {
		t.Fatal(err)
	}
	s, err := core.Open(core.Options{Backend: kvlog.New(kv)})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if got := tableContents(t, s, nil); len(got) != len(want) {
		t.Fatalf("after compacting a legacy snapshot: %d entities, want %d", len(got), len(want))
	}
}

func TestBackend_Partial_damage(t *testing.T) {
	kv := memory.NewKV()
	pagedStore(t, kv, 3000, 0)
	var chunk string
	kv.Scan("page/", func(k string, _ []byte) error { chunk = k; return nil }) // the last
	kv.Commit([]kvlog.Entry{{Key: chunk, Value: []byte("*3\r\n$3\r\nset")}}, nil)
	b := kvlog.New(kv).Partial()
	s, err := core.Open(core.Options{Backend: b, Partial: true})
	if err != nil {
		t.Fatal(err) // the pages are read when a call needs them
	}
	defer s.Close()
	read := func() error {
		return s.View(func(tx *core.Tx) error {
			return tx.Scan("things", stored.WholeTable, func(*model.Entity) bool { return true })
		})
	}
	var damage *kvlog.DamageError
	if err := b.Run(s, read); !errors.As(err, &damage) || damage.Key != chunk {
		t.Fatalf("a full read over a damaged chunk: %v, want damage at %s", err, chunk)
	}
}

func TestBackend_CompactPages(t *testing.T) {
	kv := memory.NewKV()
	want := pagedStore(t, kv, 3000, 0)
	pagesBefore := map[string]string{}
	kv.Scan("page/", func(k string, v []byte) error { pagesBefore[k] = string(v); return nil })

	s, b := openPartial(t, kv)
	apply := func(op core.Op) {
		t.Helper()
		if err := b.Run(s, func() error { _, err := s.Apply("things", op); return err }); err != nil {
			t.Fatal(err)
		}
	}
	// Partition p05 grows past two pages; p01 to p03 lose every entity, emptying pages.
	for i := 0; i < 1500; i++ {
		rk := fmt.Sprintf("s%05d", i)
		apply(core.Op{Kind: core.OpInsert, Entity: &model.Entity{PartitionKey: "p05", RowKey: rk, Properties: []model.Property{{Name: "v", Value: model.StringValue(strings.Repeat("y", 180))}}}})
		want["p05/"+rk] = strings.Repeat("y", 180)
	}
	for k := range want {
		if pk, rk, _ := strings.Cut(k, "/"); pk >= "p01" && pk <= "p03" {
			apply(core.Op{Kind: core.OpDelete, Entity: &model.Entity{PartitionKey: pk, RowKey: rk}, IfMatch: "*"})
			delete(want, k)
		}
	}
	if err := b.CompactPages(s); err != nil {
		t.Fatal(err)
	}
	if b.LogBytes() != 0 {
		t.Fatalf("%d bytes of log after a compaction", b.LogBytes())
	}
	logKeys := 0
	kv.Scan("log/", func(string, []byte) error { logKeys++; return nil })
	pagesAfter := map[string]string{}
	kv.Scan("page/", func(k string, v []byte) error { pagesAfter[k] = string(v); return nil })
	kept := 0
	for k, v := range pagesBefore {
		if pagesAfter[k] == v {
			kept++
		}
	}
	if logKeys != 0 || kept == 0 || kept == len(pagesBefore) {
		t.Fatalf("after compacting: %d log keys, %d of %d pages kept as they were, %d pages; want 0 log keys, some pages kept and some rewritten",
			logKeys, kept, len(pagesBefore), len(pagesAfter))
	}
	s.Close()
	for _, partial := range []bool{false, true} {
		b := kvlog.New(kv)
		if partial {
			b.Partial()
		}
		s, err := core.Open(core.Options{Backend: b, Partial: partial})
		if err != nil {
			t.Fatal(err)
		}
		got := tableContents(t, s, b)
		s.Close()
		if len(got) != len(want) {
			t.Fatalf("partial %v: %d entities after compacting pages, want %d", partial, len(got), len(want))
		}
		for k, v := range want {
			if got[k] != v {
				t.Fatalf("partial %v: %s = %q, want %q", partial, k, got[k], v)
			}
		}
	}
}

// openPartial opens the store in kv partial, closed when the test ends.
func openPartial(t *testing.T, kv kvlog.KV) (*core.Store, *kvlog.Backend) {
	t.Helper()
	b := kvlog.New(kv).Partial()
	s, err := core.Open(core.Options{Backend: b, Partial: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, b
}
