package core_test

import (
	"slices"
	"testing"
	"time"

	"github.com/tabletopdb/tabletop/core"
)

// page reads up to n changes of table after since in one transaction and returns them
// with the checkpoint to resume from, caught up when the page reached the end of the feed.
func page(s *core.Store, table string, since core.Checkpoint, n int) (cs []core.Change, next core.Checkpoint, more bool, err error) {
	err = s.View(func(tx *core.Tx) error {
		next = since
		err := tx.Changes(table, since, func(c core.Change) bool {
			if len(cs) == n {
				more = true
				return false
			}
			cs, next = append(cs, c), c.Checkpoint
			return true
		})
		if err != nil || more {
			return err
		}
		next, err = tx.CaughtUp(next)
		return err
	})
	return cs, next, more, err
}

// readAll pages through table's feed after since, n changes a page, calling between
// after each page but the last; it returns what it read and the last checkpoint.
func readAll(s *core.Store, table string, since core.Checkpoint, n int, between func()) ([]string, core.Checkpoint, error) {
	var got []string
	for {
		cs, next, more, err := page(s, table, since, n)
		if err != nil {
			return got, since, err
		}
		got, since = append(got, describe(cs)...), next
		if !more {
			return got, since, nil
		}
		if between != nil {
			between()
		}
	}
}

// oldTable fills table "feed" of a store keeping deletions for a day with five entities,
// then, a day and more later, deletes entities of table "other" and purges the records of
// the deletions done along with them, so that the deletion horizon is after every entity
// of "feed".
func oldTable(t *testing.T, clk *clock, s *core.Store) {
	t.Helper()
	for i := range 5 {
		insert(t, s, "feed", ent("p", itoa(i)))
	}
	for i := range 3 {
		insert(t, s, "other", ent("o", itoa(i)))
		del(t, s, "other", "o", itoa(i))
	}
	clk.Advance(25 * time.Hour)
	if n, err := s.PurgeDeletions(); n != 3 || err != nil {
		t.Fatalf("PurgeDeletions = %d, %v; want 3", n, err)
	}
}

var oldKeys = []string{"p/0", "p/1", "p/2", "p/3", "p/4"}

func TestTx_Changes_FromStart(t *testing.T) {
	t.Run("OK/EntitiesOlderThanTheHorizon", func(t *testing.T) {
		clk := newClock()
		s := syncStore(t, clk, "feed", "other")
		oldTable(t, clk, s)
		got, _, err := readAll(s, "feed", core.Checkpoint{}, 2, nil)
		if err != nil || !slices.Equal(got, oldKeys) {
			t.Fatalf("read from the start: %v, %v; want %v", got, err, oldKeys)
		}
	})
	t.Run("OK/EntitiesOlderThanTheRetention", func(t *testing.T) {
		clk := newClock()
		s := syncStore(t, clk, "feed")
		for i := range 5 {
			insert(t, s, "feed", ent("p", itoa(i)))
		}
		clk.Advance(48 * time.Hour)
		got, _, err := readAll(s, "feed", core.Checkpoint{}, 1, nil)
		if err != nil || !slices.Equal(got, oldKeys) {
			t.Fatalf("read from the start: %v, %v; want %v", got, err, oldKeys)
		}
	})
	t.Run("OK/PurgeOfEarlierDeletionsMidRead", func(t *testing.T) {
		// Deletions committed before the read began concern nothing the reader holds.
		clk := newClock()
		s := syncStore(t, clk, "feed", "other")
		for i := range 5 {
			insert(t, s, "feed", ent("p", itoa(i)))
		}
		insert(t, s, "other", ent("o", "1"))
		del(t, s, "other", "o", "1")
		clk.Advance(23 * time.Hour)
		got, _, err := readAll(s, "feed", core.Checkpoint{}, 2, func() {
			clk.Advance(time.Hour)
			s.PurgeDeletions()
		})
		if err != nil || !slices.Equal(got, oldKeys) {
			t.Fatalf("read from the start: %v, %v; want %v", got, err, oldKeys)
		}
	})
	t.Run("ErrCheckpointExpired/PurgePassesThePosition", func(t *testing.T) {
		// An entity already read is deleted, and its record purged before the next page.
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
		for i := range 5 {
			insert(t, s, "feed", ent("p", itoa(i)))
		}
		clk.Advance(2 * time.Hour)
		_, cp, more, err := page(s, "feed", core.Checkpoint{}, 2)
		if err != nil || !more {
			t.Fatalf("first page: more %v, %v", more, err)
		}
		del(t, s, "feed", "p", "0")
		clk.Advance(2 * time.Hour)
		if n, err := s.PurgeDeletions(); n != 1 || err != nil {
			t.Fatalf("PurgeDeletions = %d, %v", n, err)
		}
		// A longer retention now: only the horizon tells that the record was purged.
		s.Close()
		s = open(48 * time.Hour)
		defer s.Close()
		_, _, _, err = page(s, "feed", cp, 2)
		wantErr(t, err, core.ErrCheckpointExpired)
	})
}

func TestTx_CaughtUp(t *testing.T) {
	t.Run("OK/OldTableAfterThePurge", func(t *testing.T) {
		// A reader that read a table of old entities to its end resumes from its last
		// checkpoint after the horizon passed those entities, and sees what came since.
		clk := newClock()
		s := syncStore(t, clk, "feed", "other")
		for i := range 5 {
			insert(t, s, "feed", ent("p", itoa(i)))
		}
		insert(t, s, "other", ent("o", "1"))
		del(t, s, "other", "o", "1")
		_, end, err := readAll(s, "feed", core.Checkpoint{}, 2, nil)
		if err != nil {
			t.Fatal(err)
		}
		clk.Advance(25 * time.Hour)
		if n, err := s.PurgeDeletions(); n != 1 || err != nil {
			t.Fatalf("PurgeDeletions = %d, %v", n, err)
		}
		got, _, err := readAll(s, "feed", end, 2, nil)
		if err != nil || len(got) != 0 {
			t.Fatalf("after the end: %v, %v", got, err)
		}
		insert(t, s, "feed", ent("q", "new"))
		del(t, s, "feed", "p", "1")
		got, _, err = readAll(s, "feed", end, 2, nil)
		if want := []string{"q/new", "-p/1"}; err != nil || !slices.Equal(got, want) {
			t.Fatalf("after the end: %v, %v; want %v", got, err, want)
		}
	})
	t.Run("ErrCheckpointExpired/OfflineLongerThanTheRetention", func(t *testing.T) {
		clk := newClock()
		s := syncStore(t, clk, "feed")
		for i := range 5 {
			insert(t, s, "feed", ent("p", itoa(i)))
		}
		_, end, err := readAll(s, "feed", core.Checkpoint{}, 2, nil)
		if err != nil {
			t.Fatal(err)
		}
		del(t, s, "feed", "p", "1")
		clk.Advance(25 * time.Hour)
		s.PurgeDeletions()
		_, _, err = readAll(s, "feed", end, 2, nil)
		wantErr(t, err, core.ErrCheckpointExpired)
	})
	t.Run("ErrTableReplaced", func(t *testing.T) {
		clk := newClock()
		s := syncStore(t, clk, "feed")
		insert(t, s, "feed", ent("p", "0"))
		_, end, err := readAll(s, "feed", core.Checkpoint{}, 2, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.DeleteTable("feed"); err != nil {
			t.Fatal(err)
		}
		if _, err := s.CreateTable("feed"); err != nil {
			t.Fatal(err)
		}
		insert(t, s, "feed", ent("p", "1"))
		_, _, err = readAll(s, "feed", end, 2, nil)
		wantErr(t, err, core.ErrTableReplaced)
	})
	t.Run("ErrCheckpointOtherStore/RestoredOlderCopy", func(t *testing.T) {
		clk := newClock()
		kv := memoryBackend()
		s, err := core.Open(core.Options{Backend: kv(), Now: clk.Now, DeletionRetention: time.Hour})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		s.CreateTable("feed")
		insert(t, s, "feed", ent("p", "0"))
		_, end, err := readAll(s, "feed", core.Checkpoint{}, 2, nil)
		if err != nil {
			t.Fatal(err)
		}
		end.Synced++
		_, _, err = readAll(s, "feed", end, 2, nil)
		wantErr(t, err, core.ErrCheckpointOtherStore)
	})
}
