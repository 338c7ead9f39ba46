package core

import (
	"bytes"
	"errors"
	"fmt"
	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/core/stored"
	"io"
	"strings"
	"testing"
	"time"
)

func TestResident_Missing(t *testing.T) {
	r := &resident{}
	r.add("b", "d")
	r.add("f", "h")
	tests := []struct {
		from, to, lo, hi string
		ok               bool
	}{
		{"b", "d", "", "", false},
		{"b", "c", "", "", false},
		{"f", "h", "", "", false},
		{"a", "c", "a", "b", true},
		{"c", "g", "d", "f", true},
		{"d", "e", "d", "e", true},
		{"g", "z", "h", "z", true},
		{"h", "i", "h", "i", true},
		{"", KeySpaceEnd, "", "b", true},
		{"c", "c", "", "", false},
	}
	for _, tt := range tests {
		lo, hi, ok := r.missing(tt.from, tt.to)
		if lo != tt.lo || hi != tt.hi || ok != tt.ok {
			t.Errorf("missing(%q, %q) = %q, %q, %v; want %q, %q, %v", tt.from, tt.to, lo, hi, ok, tt.lo, tt.hi, tt.ok)
		}
	}
}

func TestResident_Add(t *testing.T) {
	tests := []struct {
		name string
		adds [][2]string
		want []string
	}{
		{"OK", [][2]string{{"b", "d"}}, []string{"b", "d"}},
		{"Disjoint", [][2]string{{"f", "h"}, {"b", "d"}}, []string{"b", "d", "f", "h"}},
		{"Touching", [][2]string{{"b", "d"}, {"d", "f"}}, []string{"b", "f"}},
		{"TouchingBelow", [][2]string{{"d", "f"}, {"b", "d"}}, []string{"b", "f"}},
		{"Inside", [][2]string{{"b", "h"}, {"c", "d"}}, []string{"b", "h"}},
		{"Covering", [][2]string{{"c", "d"}, {"f", "g"}, {"b", "h"}}, []string{"b", "h"}},
		{"Bridging", [][2]string{{"b", "d"}, {"f", "h"}, {"c", "g"}}, []string{"b", "h"}},
		{"Empty", [][2]string{{"d", "d"}, {"e", "b"}}, nil},
		{"WholeSpace", [][2]string{{"b", "d"}, {"", KeySpaceEnd}}, []string{"", KeySpaceEnd}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &resident{}
			for _, a := range tt.adds {
				r.add(a[0], a[1])
			}
			if fmt.Sprint(r.b) != fmt.Sprint(tt.want) {
				t.Errorf("ranges %q, want %q", r.b, tt.want)
			}
		})
	}
}

// captureBackend keeps the change sets a store appends, as a host's log would.
type captureBackend struct {
	log      [][]byte
	compacts int
}

func (b *captureBackend) Load(func(io.Reader) error, func([]byte) error) error { return nil }
func (b *captureBackend) Append(cs []byte) error {
	b.log = append(b.log, bytes.Clone(cs))
	return nil
}
func (b *captureBackend) Compact(func(io.Writer) error) error { b.compacts++; return nil }
func (b *captureBackend) Close() error                        { return nil }

// pagedHost keeps a store as its host would: key-range pages of a snapshot plus the log
// of the change sets committed after it.
type pagedHost struct {
	pages   []hostPage
	log     [][]byte
	most    int  // the most pages run loads for one need, 0 for all
	withLog bool // hand the log after the pages with each page
}

type hostPage struct {
	lo, hi string
	data   []byte
}

// pageStore cuts the whole of s into pages of n records.
func pageStore(t *testing.T, s *Store, n int) *pagedHost {
	t.Helper()
	var all bytes.Buffer
	if err := s.SaveRange("", KeySpaceEnd, &all); err != nil {
		t.Fatal(err)
	}
	h := &pagedHost{}
	var cur *hostPage
	i := 0
	err := stored.EachCommand(all.Bytes(), func(cmd []byte, key string) error {
		if i%n == 0 {
			if cur != nil {
				cur.hi = key
			}
			h.pages = append(h.pages, hostPage{lo: key})
			cur = &h.pages[len(h.pages)-1]
		}
		cur.data = append(cur.data, cmd...)
		i++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	h.pages[0].lo, cur.hi = "", KeySpaceEnd
	return h
}

// load loads every page meeting [lo, hi) into s (the first h.most), with the log when
// h.withLog is set; else the store has applied the log (ApplyChangeSet) and deferred it.
func (h *pagedHost) load(t *testing.T, s *Store, lo, hi string) {
	t.Helper()
	n := 0
	for _, p := range h.pages {
		if p.lo < hi && lo < p.hi && (h.most == 0 || n < h.most) {
			n++
			sets := [][]byte{p.data}
			if h.withLog {
				sets = append(sets, h.log...)
			}
			if err := s.LoadRange(p.lo, p.hi, sets...); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// run calls fn until it does not fail with ErrNeedRange, loading the range it needs
// each time, as the host of a partial store does; it returns fn's last error and how
// many ranges it loaded.
func (h *pagedHost) run(t *testing.T, s *Store, fn func() error) (int, error) {
	t.Helper()
	for loads := 0; ; loads++ {
		err := fn()
		var need *NeedRangeError
		if !errors.As(err, &need) {
			return loads, err
		}
		if loads > len(h.pages)+1 {
			t.Fatalf("no progress: %v", err)
		}
		h.load(t, s, need.Lo, need.Hi)
	}
}

// observe renders what the public reads of a store answer: tables, entities, the change
// feed, the indexes and a setting.
func observe(s *Store) (string, error) {
	var b strings.Builder
	err := s.View(func(tx *Tx) error {
		b.Reset()
		var names []string
		if err := tx.Tables("", func(t *Table) bool { names = append(names, t.Name); return true }); err != nil {
			return err
		}
		for _, name := range names {
			fmt.Fprintf(&b, "table %s\n", name)
			err := tx.Scan(name, stored.WholeTable, func(e *model.Entity) bool {
				fmt.Fprintf(&b, "  %s/%s %d %v\n", e.PartitionKey, e.RowKey, e.Timestamp, e.Properties)
				return true
			})
			if err != nil {
				return err
			}
			err = tx.ScanRecords(name, stored.WholeTable, func(rec *stored.Record) bool {
				fmt.Fprintf(&b, "  record %s/%s %d\n", rec.PartitionKey, rec.RowKey, len(rec.Data()))
				return true
			})
			if err != nil {
				return err
			}
			err = tx.Changes(name, Checkpoint{}, func(c Change) bool {
				fmt.Fprintf(&b, "  change %s/%s %d deleted=%v\n", c.PartitionKey, c.RowKey, c.Timestamp, c.Deleted())
				return true
			})
			if err != nil {
				return err
			}
			props, err := tx.Indexes(name)
			if err != nil {
				return err
			}
			for _, prop := range props {
				err := tx.ScanIndex(name, prop, stored.IndexAbove(model.Int32Value(10), true), func(rec *stored.Record) bool {
					fmt.Fprintf(&b, "  index %s %s/%s\n", prop, rec.PartitionKey, rec.RowKey)
					return true
				})
				if err != nil {
					return err
				}
			}
		}
		v, _, err := tx.Meta("owner")
		fmt.Fprintf(&b, "meta %q\n", v)
		return err
	})
	return b.String(), err
}

// residentOpts are the options of both stores of the residency tests: Timestamps
// depend only on the clock's state, so both stores issue the same ones.
func residentOpts(partial bool) Options {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	return Options{
		Backend:           &captureBackend{},
		Now:               func() time.Time { return at },
		DeletionRetention: time.Hour,
		Partial:           partial,
	}
}

// residentWrites are writes applied to both stores, round i.
func residentWrites(i int) func(tx *Tx) error {
	return func(tx *Tx) error {
		switch i {
		case 0:
			for _, name := range []string{"alpha", "beta", "gamma"} {
				if _, err := tx.CreateTable(name); err != nil {
					return err
				}
			}
			return tx.CreateIndex("alpha", "n")
		case 1, 2, 3:
			for j := range 30 {
				e := &model.Entity{PartitionKey: fmt.Sprintf("p%d", j%3), RowKey: fmt.Sprintf("r%02d-%d", j, i),
					Properties: []model.Property{{Name: "n", Value: model.Int32Value(int32(j))}}}
				for _, table := range []string{"alpha", "beta", "gamma"} {
					if _, err := tx.Apply(table, Op{Kind: OpInsert, Entity: e}); err != nil {
						return err
					}
				}
			}
			return tx.SetMeta("owner", fmt.Sprint("round ", i))
		case 4:
			del := &model.Entity{PartitionKey: "p1", RowKey: "r01-1"}
			if _, err := tx.Apply("alpha", Op{Kind: OpDelete, Entity: del, IfMatch: "*"}); err != nil {
				return err
			}
			m := &model.Entity{PartitionKey: "p2", RowKey: "r05-2", Properties: []model.Property{{Name: "x", Value: model.StringValue("merged")}}}
			_, err := tx.Apply("beta", Op{Kind: OpMerge, Entity: m, IfMatch: "*"})
			return err
		case 5:
			return tx.DeleteTable("gamma")
		default:
			e := &model.Entity{PartitionKey: "p0", RowKey: fmt.Sprint("late", i), Properties: []model.Property{{Name: "n", Value: model.Int32Value(99)}}}
			_, err := tx.Apply("alpha", Op{Kind: OpInsertOrReplace, Entity: e})
			return err
		}
	}
}

// fullStore opens a store with every range resident, closed when t ends, and commits
// residentWrites 0 … writes-1 to it.
func fullStore(t *testing.T, writes int) *Store {
	t.Helper()
	full, err := Open(residentOpts(false))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { full.Close() })
	for i := range writes {
		if err := full.Update(residentWrites(i)); err != nil {
			t.Fatal(err)
		}
	}
	return full
}

func TestStore_LoadRange(t *testing.T) {
	full := fullStore(t, 4)
	host := pageStore(t, full, 7)
	fullLog := full.backend.(*captureBackend)
	fullLog.log = nil
	for i := 4; i < 6; i++ { // committed after the pages: in the log only
		if err := full.Update(residentWrites(i)); err != nil {
			t.Fatal(err)
		}
	}
	host.log = fullLog.log

	part, err := Open(residentOpts(true))
	if err != nil {
		t.Fatal(err)
	}
	defer part.Close()
	for _, cs := range host.log { // another tab's commits: nothing is resident, all dropped
		if err := part.ApplyChangeSet(cs); err != nil {
			t.Fatal(err)
		}
	}
	if n, err := part.Records(); n != 0 || err != nil {
		t.Fatalf("%d records held for ranges not resident, err %v", n, err)
	}
	t.Run("ErrNeedRange", func(t *testing.T) {
		_, err := part.Get("alpha", "p0", "r00-1")
		var need *NeedRangeError
		if !errors.As(err, &need) || !errors.Is(err, ErrNeedRange) || need.Lo != stored.EntityKey("alpha", "p0", "r00-1") || need.Hi != need.Lo+"\x00" {
			t.Fatalf("err %v", err)
		}
	})
	t.Run("OK", func(t *testing.T) {
		loads, err := host.run(t, part, func() error {
			e, err := part.Get("beta", "p2", "r05-2")
			if err == nil && (len(e.Properties) != 2 || e.Properties[1].Value != model.StringValue("merged")) {
				t.Errorf("entity %v misses the merge that is in the log only", e)
			}
			return err
		})
		if err != nil || loads != 1 {
			t.Fatalf("%d loads, err %v", loads, err)
		}
		assertSameStores(t, host, full, part)
	})
	t.Run("Writes", func(t *testing.T) {
		partLog := part.backend.(*captureBackend)
		for i := 6; i < 9; i++ {
			if err := full.Update(residentWrites(i)); err != nil {
				t.Fatal(err)
			}
			if _, err := host.run(t, part, func() error { return part.Update(residentWrites(i)) }); err != nil {
				t.Fatal(err)
			}
		}
		host.log = append(host.log, partLog.log...) // the host logs the replica's commits
		assertSameStores(t, host, full, part)
	})
	t.Run("OK/WithLog", func(t *testing.T) {
		// A replica that applied none of the log loads pages with the log after them.
		fresh, err := Open(residentOpts(true))
		if err != nil {
			t.Fatal(err)
		}
		defer fresh.Close()
		withLog := *host
		withLog.withLog = true
		assertSameStores(t, &withLog, full, fresh)
	})
	t.Run("ErrNeedRange/Snapshot", func(t *testing.T) {
		if err := part.Snapshot(io.Discard); !errors.Is(err, ErrNeedRange) {
			t.Fatalf("err %v", err)
		}
	})
	t.Run("ResidentKept", func(t *testing.T) {
		// Once every range is resident, a stale load (a page without the log after it)
		// changes nothing.
		host.load(t, part, "", KeySpaceEnd)
		for _, p := range host.pages {
			if err := part.LoadRange(p.lo, p.hi, p.data); err != nil {
				t.Fatal(err)
			}
		}
		assertSameStores(t, host, full, part)
		var a, b bytes.Buffer
		if err := errors.Join(full.Snapshot(&a), part.Snapshot(&b)); err != nil || !bytes.Equal(a.Bytes(), b.Bytes()) {
			t.Fatalf("snapshots differ (%d and %d bytes), err %v", a.Len(), b.Len(), err)
		}
	})
}

// assertSameStores checks that the partial store, loading what it needs, reads as the
// full one.
func assertSameStores(t *testing.T, host *pagedHost, full, part *Store) {
	t.Helper()
	want, err := observe(full)
	if err != nil {
		t.Fatal(err)
	}
	var got string
	if _, err := host.run(t, part, func() (err error) { got, err = observe(part); return err }); err != nil {
		t.Fatal(err)
	}
	if got != want {
		t.Fatalf("partial store reads\n%s\nthe full store\n%s", got, want)
	}
}

func TestStore_Partial(t *testing.T) {
	full := fullStore(t, 4)
	host := pageStore(t, full, 10)
	open := func(t *testing.T) *Store {
		s, err := Open(residentOpts(true))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}
	t.Run("OK/ScanStopsEarly", func(t *testing.T) {
		s := open(t)
		host.load(t, s, stored.TableKey("beta"), stored.TableKey("beta")+"\x00")
		first := ""
		onePage := *host
		onePage.most = 1
		loads, err := onePage.run(t, s, func() error {
			return s.View(func(tx *Tx) error {
				return tx.ScanRecords("beta", stored.WholeTable, func(rec *stored.Record) bool { first = rec.RowKey; return false })
			})
		})
		if err != nil || loads > 2 || first != "r00-1" {
			t.Fatalf("%d loads, first %q, err %v", loads, first, err)
		}
		if _, _, ok := s.resident.missing(stored.TableEntities("beta"), stored.TableEntities("beta")+"\xff"); !ok {
			t.Fatal("a scan that stopped at its first entity loaded the whole table")
		}
	})
	t.Run("ErrNeedRange/ScanBeforeAGap", func(t *testing.T) {
		// Only the table and the back of its entities are resident: a scan that would stop
		// at its first entity must ask for the front, not answer from the back.
		s := open(t)
		host.load(t, s, stored.TableKey("beta"), stored.TableKey("beta")+"\x00")
		host.load(t, s, stored.EntityKey("beta", "p1", ""), stored.TableEntities("beta")+"\xff")
		seen := ""
		err := s.View(func(tx *Tx) error {
			return tx.ScanRecords("beta", stored.WholeTable, func(rec *stored.Record) bool { seen = rec.RowKey; return false })
		})
		var need *NeedRangeError
		if !errors.As(err, &need) || seen != "" || need.Lo != stored.TableEntities("beta") {
			t.Fatalf("saw %q, err %v", seen, err)
		}
	})
	t.Run("ErrNeedRange/IndexOnPartOfTable", func(t *testing.T) {
		s := open(t)
		host.load(t, s, "", stored.TableEntities("alpha")+"p1") // declarations, table, part of its entities
		host.load(t, s, stored.TableKey("alpha"), stored.TableKey("alpha")+"\x00")
		err := s.View(func(tx *Tx) error {
			return tx.ScanIndex("alpha", "n", stored.IndexEq(model.Int32Value(1)), func(*stored.Record) bool { return true })
		})
		var need *NeedRangeError
		if !errors.As(err, &need) || need.Lo <= stored.TableEntities("alpha") || need.Hi != stored.TableEntities("alpha")+"\xff" {
			t.Fatalf("err %v", err)
		}
	})
	t.Run("ErrNeedRange/WriteChangesNothing", func(t *testing.T) {
		s := open(t)
		host.load(t, s, stored.TableKey("alpha"), stored.TableKey("alpha")+"\x00")
		e := &model.Entity{PartitionKey: "p0", RowKey: "new"}
		_, err := s.Apply("alpha", Op{Kind: OpInsert, Entity: e})
		if !errors.Is(err, ErrNeedRange) {
			t.Fatalf("err %v", err)
		}
		if log := s.backend.(*captureBackend).log; len(log) != 0 {
			t.Fatalf("a write that needed a range logged %q", log)
		}
		if _, err := host.run(t, s, func() error { _, err := s.Apply("alpha", Op{Kind: OpInsert, Entity: e}); return err }); err != nil {
			t.Fatal(err)
		}
		if got, err := s.Get("alpha", "p0", "new"); err != nil || got.Timestamp == 0 {
			t.Fatalf("entity %v, err %v", got, err)
		}
	})
	t.Run("OK/NoWholeSnapshot", func(t *testing.T) {
		// Every range resident and the log far past CompactAfter: the host compacts by
		// pages, so the store writes no whole snapshot of its own.
		opts := residentOpts(true)
		opts.CompactAfter = 1 << 10
		s, err := Open(opts)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		if err := s.LoadRange("", KeySpaceEnd); err != nil {
			t.Fatal(err)
		}
		if _, err := s.CreateTable("alpha"); err != nil {
			t.Fatal(err)
		}
		for i := range 100 {
			e := &model.Entity{PartitionKey: "p", RowKey: fmt.Sprint(i), Properties: []model.Property{{Name: "s", Value: model.StringValue(strings.Repeat("x", 100))}}}
			if _, err := s.Apply("alpha", Op{Kind: OpInsert, Entity: e}); err != nil {
				t.Fatal(err)
			}
		}
		if b := s.backend.(*captureBackend); b.compacts != 0 || len(b.log) != 101 {
			t.Fatalf("%d compactions, %d change sets", b.compacts, len(b.log))
		}
	})
	t.Run("ErrPartialIndexes", func(t *testing.T) {
		_, err := Open(Options{Partial: true, Indexes: []IndexSpec{{Table: "alpha", Property: "n"}}})
		if !errors.Is(err, ErrPartialIndexes) {
			t.Fatalf("err %v", err)
		}
	})
	t.Run("OK/NotPartial", func(t *testing.T) {
		if err := full.LoadRange("", KeySpaceEnd, []byte("not commands")); err != nil {
			t.Fatalf("err %v", err)
		}
	})
	t.Run("ErrChangeSetInvalid", func(t *testing.T) {
		s := open(t)
		err := s.LoadRange("", KeySpaceEnd, host.pages[0].data, []byte("*2\r\n"))
		if !errors.Is(err, stored.ErrChangeSetInvalid) {
			t.Fatalf("err %v", err)
		}
		if n, _ := s.Records(); n != 0 || s.need("", KeySpaceEnd) == nil {
			t.Fatalf("a malformed load left %d records", n)
		}
	})
}
