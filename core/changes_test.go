package core_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/model"
)

// clock is an Options.Now a test moves by hand.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *clock { return &clock{t: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)} }

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// syncStore opens an in-memory store keeping deletion records for a day, on clk.
func syncStore(t testing.TB, clk *clock, tables ...string) *core.Store {
	return newRuleStore(t, core.Options{Now: clk.Now, DeletionRetention: 24 * time.Hour}, tables...)
}

// feed returns the changes of a table after since, failing the test on error.
func feed(t testing.TB, s *core.Store, table string, since core.Checkpoint) []core.Change {
	t.Helper()
	cs, err := changes(s, table, since, -1)
	if err != nil {
		t.Fatalf("changes of %s after %v: %v", table, since, err)
	}
	return cs
}

// changes returns up to limit changes of a table after since (limit < 0: all).
func changes(s *core.Store, table string, since core.Checkpoint, limit int) (out []core.Change, err error) {
	err = s.View(func(tx *core.Tx) error {
		return tx.Changes(table, since, func(c core.Change) bool {
			out = append(out, c)
			return len(out) != limit
		})
	})
	return out, err
}

// describe writes changes as "pk/rk" for entities and "-pk/rk" for deletions.
func describe(cs []core.Change) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.PartitionKey + "/" + c.RowKey
		if c.Deleted() {
			out[i] = "-" + out[i]
		}
	}
	return out
}

func del(t testing.TB, s *core.Store, table, pk, rk string) {
	t.Helper()
	if _, err := s.Apply(table, core.Op{Kind: core.OpDelete, Entity: &model.Entity{PartitionKey: pk, RowKey: rk}}); err != nil {
		t.Fatalf("delete (%q, %q): %v", pk, rk, err)
	}
}

func ent(pk, rk string) *model.Entity { return &model.Entity{PartitionKey: pk, RowKey: rk} }

// checkpointAt is the checkpoint of entity e, as written to store s.
func checkpointAt(t testing.TB, s *core.Store, table string, e *model.Entity) core.Checkpoint {
	t.Helper()
	var id model.Guid
	var tb *core.Table
	err := s.View(func(tx *core.Tx) (err error) {
		if id, err = tx.StoreID(); err != nil {
			return err
		}
		tb, err = tx.Table(table)
		return err
	})
	if err != nil || id == (model.Guid{}) {
		t.Fatalf("store id %v, %v", id, err)
	}
	return core.Checkpoint{Store: id, Table: tb.Incarnation, Timestamp: e.Timestamp, PartitionKey: e.PartitionKey, RowKey: e.RowKey}
}

func TestTx_Changes(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		clk := newClock()
		s := syncStore(t, clk, "feed", "other")
		insert(t, s, "feed", ent("b", "1"))
		insert(t, s, "other", ent("a", "0"))
		// A batch is one transaction: one Timestamp, its entities in key order.
		if _, err := s.ApplyBatch("feed", []core.Op{{Kind: core.OpInsert, Entity: ent("a", "2")}, {Kind: core.OpInsert, Entity: ent("a", "1")}}); err != nil {
			t.Fatal(err)
		}
		insert(t, s, "feed", ent("c", "1"))
		if _, err := s.Apply("feed", core.Op{Kind: core.OpInsertOrReplace, Entity: ent("b", "1")}); err != nil {
			t.Fatal(err)
		}
		del(t, s, "feed", "c", "1")
		got := feed(t, s, "feed", core.Checkpoint{})
		want := []string{"a/1", "a/2", "b/1", "-c/1"}
		if !slices.Equal(describe(got), want) {
			t.Fatalf("feed = %v, want %v", describe(got), want)
		}
		for i := 1; i < len(got); i++ {
			if !got[i-1].Before(got[i].Checkpoint) {
				t.Fatalf("%v not before %v", got[i-1].Checkpoint, got[i].Checkpoint)
			}
		}
		if got[2].Entity.Timestamp != got[2].Timestamp {
			t.Fatalf("entity Timestamp %v, change Timestamp %v", got[2].Entity.Timestamp, got[2].Timestamp)
		}
		// Resuming after each change gives exactly the rest.
		for i := range got {
			rest := feed(t, s, "feed", got[i].Checkpoint)
			if !slices.Equal(describe(rest), want[i+1:]) {
				t.Fatalf("after %d: %v, want %v", i, describe(rest), want[i+1:])
			}
		}
	})
	t.Run("OK/ReinsertSupersedesDeletion", func(t *testing.T) {
		s := syncStore(t, newClock(), "feed")
		insert(t, s, "feed", ent("p", "1"))
		cp := feed(t, s, "feed", core.Checkpoint{})[0].Checkpoint
		del(t, s, "feed", "p", "1")
		insert(t, s, "feed", ent("p", "1"))
		if got := describe(feed(t, s, "feed", core.Checkpoint{})); !slices.Equal(got, []string{"p/1"}) {
			t.Fatalf("feed = %v, want [p/1]", got)
		}
		if got := describe(feed(t, s, "feed", cp)); !slices.Equal(got, []string{"p/1"}) {
			t.Fatalf("feed after the deletion = %v, want [p/1]", got)
		}
	})
	t.Run("OK/BatchDeletes", func(t *testing.T) {
		s := syncStore(t, newClock(), "feed")
		insert(t, s, "feed", ent("p", "1"))
		insert(t, s, "feed", ent("p", "2"))
		if _, err := s.ApplyBatch("feed", []core.Op{{Kind: core.OpDelete, Entity: ent("p", "2")}, {Kind: core.OpDelete, Entity: ent("p", "1")}}); err != nil {
			t.Fatal(err)
		}
		if got := describe(feed(t, s, "feed", core.Checkpoint{})); !slices.Equal(got, []string{"-p/1", "-p/2"}) {
			t.Fatalf("feed = %v", got)
		}
	})
	t.Run("OK/ManyInterleaved", func(t *testing.T) {
		// More than a chunk of each kind, interleaved, across tables: the merge must keep
		// feed order at chunk boundaries.
		s := syncStore(t, newClock(), "feed", "other")
		for i := range 700 {
			insert(t, s, "feed", ent("p", fmt.Sprintf("%04d", i)))
			insert(t, s, "other", ent("p", fmt.Sprintf("%04d", i)))
			if i%3 == 0 {
				del(t, s, "feed", "p", fmt.Sprintf("%04d", i/3))
			}
		}
		got := feed(t, s, "feed", core.Checkpoint{})
		if len(got) != 700 {
			t.Fatalf("%d changes, want 700", len(got))
		}
		deleted := 0
		for i := 1; i < len(got); i++ {
			if !got[i-1].Before(got[i].Checkpoint) {
				t.Fatalf("change %d %v not before %v", i, got[i-1].Checkpoint, got[i].Checkpoint)
			}
		}
		for _, c := range got {
			if c.Deleted() {
				deleted++
			}
		}
		if deleted != 234 {
			t.Fatalf("%d deletions, want 234", deleted)
		}
		var paged []core.Change
		for cp := (core.Checkpoint{}); ; {
			page, err := changes(s, "feed", cp, 100)
			if err != nil {
				t.Fatal(err)
			}
			if len(page) == 0 {
				break
			}
			paged = append(paged, page...)
			cp = page[len(page)-1].Checkpoint
		}
		if !slices.Equal(describe(paged), describe(got)) {
			t.Fatal("paging by 100 differs from one pass")
		}
	})
	t.Run("ErrTableNotFound", func(t *testing.T) {
		s := syncStore(t, newClock())
		_, err := changes(s, "nope", core.Checkpoint{}, -1)
		wantErr(t, err, core.ErrTableNotFound)
	})
	t.Run("ErrCheckpoint", func(t *testing.T) {
		recreate := func(s *core.Store, _ *clock) {
			s.DeleteTable("feed")
			s.CreateTable("Feed")
		}
		for _, tc := range []struct {
			name  string
			after func(s *core.Store, clk *clock)
			opts  func(*core.Options)
			want  error
		}{
			{"Expired/OlderThanRetention", func(_ *core.Store, clk *clock) { clk.Advance(25 * time.Hour) }, nil, core.ErrCheckpointExpired},
			{"Expired/NoRetention", nil, func(o *core.Options) { o.DeletionRetention = 0 }, core.ErrCheckpointExpired},
			{"TableReplaced", recreate, nil, core.ErrTableReplaced},
			{"TableReplaced/NoRetention", recreate, func(o *core.Options) { o.DeletionRetention = 0 }, core.ErrTableReplaced},
			{"TableReplaced/DeletionPurged", func(s *core.Store, clk *clock) {
				recreate(s, clk)
				clk.Advance(25 * time.Hour)
				if _, err := s.PurgeDeletions(); err != nil {
					panic(err)
				}
			}, nil, core.ErrTableReplaced},
			{"OtherStore/LaterThanItsClock", nil, nil, core.ErrCheckpointOtherStore},
			{"OtherStore/StartedAfresh", nil, nil, core.ErrCheckpointOtherStore},
			{"OtherStore/StartedAfresh/NoRetention", nil, func(o *core.Options) { o.DeletionRetention = 0 }, core.ErrCheckpointOtherStore},
		} {
			t.Run(tc.name, func(t *testing.T) {
				clk := newClock()
				opts := core.Options{Now: clk.Now, DeletionRetention: 24 * time.Hour}
				if tc.opts != nil {
					tc.opts(&opts)
				}
				s := newRuleStore(t, opts, "feed")
				e := insert(t, s, "feed", ent("p", "1"))
				cp := checkpointAt(t, s, "feed", e)
				switch {
				case tc.name == "OtherStore/LaterThanItsClock":
					cp.Timestamp += 1e7
				case strings.HasPrefix(tc.name, "OtherStore/StartedAfresh"):
					clk.Advance(time.Minute)
					s = newRuleStore(t, opts, "feed")
					insert(t, s, "feed", ent("p", "1"))
				}
				if tc.after != nil {
					tc.after(s, clk)
				}
				_, err := changes(s, "feed", cp, -1)
				wantErr(t, err, tc.want)
				if _, err := changes(s, "feed", core.Checkpoint{}, -1); err != nil {
					t.Fatalf("from the start: %v", err)
				}
			})
		}
	})
	t.Run("OK/CheckpointOfATableBeforeIncarnations", func(t *testing.T) {
		// A checkpoint of a server before incarnations carries none, as its tables did;
		// it resumes on such a table, and not on one created since.
		s := syncStore(t, newClock(), "feed")
		e := insert(t, s, "feed", ent("p", "1"))
		cp := checkpointAt(t, s, "feed", e)
		if cp.Table == (model.Guid{}) {
			t.Fatal("a checkpoint of a new table carries no incarnation")
		}
		old := cp
		old.Table = model.Guid{}
		_, err := changes(s, "feed", old, -1)
		wantErr(t, err, core.ErrTableReplaced)
		if _, err := changes(s, "feed", cp, -1); err != nil {
			t.Fatal(err)
		}
	})
}

func TestStore_PurgeDeletions(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		clk := newClock()
		s := syncStore(t, clk, "feed")
		var mid core.Checkpoint // a reader's position before deletions that get purged
		for i := range 20 {
			insert(t, s, "feed", ent("p", itoa(i)))
			if i == 10 {
				start := feed(t, s, "feed", core.Checkpoint{})
				mid = start[len(start)-1].Checkpoint
			}
			del(t, s, "feed", "p", itoa(i))
		}
		insert(t, s, "feed", ent("q", "kept"))
		clk.Advance(25 * time.Hour)
		// Recording a deletion purges a few expired records with it.
		insert(t, s, "feed", ent("q", "gone"))
		del(t, s, "feed", "q", "gone")
		if n := len(feed(t, s, "feed", core.Checkpoint{})); n != 22-8 {
			t.Fatalf("%d changes after one deletion, want %d", n, 22-8)
		}
		n, err := s.PurgeDeletions()
		if err != nil || n != 12 {
			t.Fatalf("PurgeDeletions = %d, %v; want 12", n, err)
		}
		if got := describe(feed(t, s, "feed", core.Checkpoint{})); !slices.Equal(got, []string{"q/kept", "-q/gone"}) {
			t.Fatalf("feed = %v", got)
		}
		// A checkpoint before a purged deletion is expired even if the retention grows.
		_, err = changes(s, "feed", mid, -1)
		wantErr(t, err, core.ErrCheckpointExpired)
	})
	t.Run("OK/HorizonOutlivesRetention", func(t *testing.T) {
		clk := newClock()
		kv := memoryBackend()
		open := func(retention time.Duration) *core.Store {
			s, err := core.Open(core.Options{Backend: kv(), Now: clk.Now, DeletionRetention: retention})
			if err != nil {
				t.Fatal(err)
			}
			return s
		}
		s := open(time.Hour)
		s.CreateTable("feed")
		insert(t, s, "feed", ent("p", "1"))
		cp := feed(t, s, "feed", core.Checkpoint{})[0].Checkpoint
		del(t, s, "feed", "p", "1")
		e2 := insert(t, s, "feed", ent("p", "2"))
		after := checkpointAt(t, s, "feed", e2)
		before := cp
		before.Timestamp--
		clk.Advance(2 * time.Hour)
		if n, err := s.PurgeDeletions(); n != 1 || err != nil {
			t.Fatalf("PurgeDeletions = %d, %v", n, err)
		}
		s.Close()
		s = open(48 * time.Hour)
		defer s.Close()
		_, err := changes(s, "feed", before, -1)
		wantErr(t, err, core.ErrCheckpointExpired)
		_, err = changes(s, "feed", cp, -1)
		wantErr(t, err, core.ErrCheckpointExpired)
		if got := feed(t, s, "feed", after); len(got) != 0 {
			t.Fatalf("after the last change: %v", describe(got))
		}
	})
	t.Run("OK/NothingExpiredWritesNothing", func(t *testing.T) {
		clk := newClock()
		s := syncStore(t, clk, "feed")
		insert(t, s, "feed", ent("p", "1"))
		del(t, s, "feed", "p", "1")
		// A read held open: a write would wait for it, a purge with nothing to remove does not.
		holding, release := make(chan struct{}), make(chan struct{})
		go s.View(func(*core.Tx) error {
			close(holding)
			<-release
			return nil
		})
		<-holding
		defer close(release)
		done := make(chan error, 1)
		go func() {
			n, err := s.PurgeDeletions()
			if err == nil && n != 0 {
				err = fmt.Errorf("removed %d records, none expired", n)
			}
			done <- err
		}()
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("PurgeDeletions with nothing expired waited for a reader, as a write transaction does")
		}
	})
}

// TestChanges_Invisible checks that deletion records stay out of every read an Azure
// client makes: scans, Get and the table list.
func TestChanges_Invisible(t *testing.T) {
	s := syncStore(t, newClock(), "feed")
	insert(t, s, "feed", ent("p", "1"))
	del(t, s, "feed", "p", "1")
	s.DeleteTable("feed")
	s.CreateTable("feed")
	insert(t, s, "feed", ent("p", "2"))
	del(t, s, "feed", "p", "2")
	if got := scanAll(t, s, "feed"); len(got) != 0 {
		t.Fatalf("scan = %d entities, want none", len(got))
	}
	if _, err := s.Get("feed", "p", "2"); err == nil {
		t.Fatal("Get found a deleted entity")
	}
	if got := tableNames(t, s); !slices.Equal(got, []string{"feed"}) {
		t.Fatalf("tables = %v", got)
	}
}

func TestTx_Changes_NoChangeFeed(t *testing.T) {
	s, err := core.Open(core.Options{NoChangeFeed: true, DeletionRetention: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.CreateTable("things"); err != nil {
		t.Fatal(err)
	}
	for _, op := range []core.Op{{Kind: core.OpInsert, Entity: entity("a", "1")}, {Kind: core.OpInsert, Entity: entity("a", "2")}, {Kind: core.OpDelete, Entity: entity("a", "1")}} {
		if _, err := s.Apply("things", op); err != nil {
			t.Fatal(err)
		}
	}
	err = s.View(func(tx *core.Tx) error {
		return tx.Changes("things", core.Checkpoint{}, func(core.Change) bool { return true })
	})
	if !errors.Is(err, core.ErrNoChangeFeed) {
		t.Fatalf("Changes = %v, want ErrNoChangeFeed", err)
	}
	// Everything else reads as in any store.
	if e, err := s.Get("things", "a", "2"); err != nil || e.RowKey != "2" {
		t.Fatalf("Get = %v, %v", e, err)
	}
	if _, err := s.Get("things", "a", "1"); !errors.Is(err, core.ErrEntityNotFound) {
		t.Fatalf("Get of the deleted entity = %v", err)
	}
}
