package core_test

import (
	"errors"
	"testing"
	"time"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/backend/outbox"
	"github.com/tabletopdb/tabletop/core/model"
)

// replica opens a store over an outbox backend, as each browser tab does.
func replica(t *testing.T, compactAfter int64, now time.Time) (*core.Store, *outbox.Backend) {
	t.Helper()
	box := outbox.New(nil, nil)
	s, err := core.Open(core.Options{Backend: box, CompactAfter: compactAfter, Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, box
}

// changeSets returns the change sets box holds, dropping snapshots.
func changeSets(box *outbox.Backend) (sets [][]byte, snapshots int) {
	for _, r := range box.Take() {
		if r.Kind == outbox.ChangeSet {
			sets = append(sets, r.Data)
		} else {
			snapshots++
		}
	}
	return sets, snapshots
}

func TestStore_ApplyChangeSet(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		clock := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
		a, boxA := replica(t, 0, clock)
		b, boxB := replica(t, 0, clock.Add(-time.Hour)) // b's wall clock is behind a's
		if _, err := a.CreateTable("People"); err != nil {
			t.Fatal(err)
		}
		written, err := a.Apply("People", core.Op{Kind: core.OpInsert, Entity: entity("p", "1")})
		if err != nil {
			t.Fatal(err)
		}
		sets, _ := changeSets(boxA)
		for _, cs := range append(sets, sets...) { // applying twice is harmless
			if err := b.ApplyChangeSet(cs); err != nil {
				t.Fatal(err)
			}
		}
		got, err := b.Get("People", "p", "1")
		if err != nil || got.ETag() != written.ETag() {
			t.Fatalf("replica reads %+v, %v; want the entity with etag %s", got, err, written.ETag())
		}
		if more, _ := changeSets(boxB); len(more) != 0 {
			t.Fatalf("applying logged %d change sets again", len(more))
		}
		next, err := b.Apply("People", core.Op{Kind: core.OpInsert, Entity: entity("p", "2")})
		if err != nil {
			t.Fatal(err)
		}
		if next.Timestamp <= written.Timestamp {
			t.Fatalf("replica's write has Timestamp %v, not after %v", next.Timestamp, written.Timestamp)
		}
	})
	t.Run("ErrStoreClosed", func(t *testing.T) {
		s, _ := replica(t, 0, time.Now())
		s.Close()
		if err := s.ApplyChangeSet([]byte("*1\r\n$3\r\ndel\r\n")); !errors.Is(err, core.ErrStoreClosed) {
			t.Fatalf("err = %v", err)
		}
	})
}

func TestStore_Compacted(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		a, boxA := replica(t, 1000, time.Now())
		b, boxB := replica(t, 1000, time.Now())
		if _, err := a.CreateTable("Things"); err != nil {
			t.Fatal(err)
		}
		big := model.Property{Name: "Blob", Value: model.StringValue(string(make([]byte, 1500)))}
		if _, err := a.Apply("Things", core.Op{Kind: core.OpInsert, Entity: entity("p", "1", big)}); err != nil {
			t.Fatal(err)
		}
		sets, snaps := changeSets(boxA)
		if snaps != 1 {
			t.Fatalf("writer made %d snapshots, want 1", snaps)
		}
		for _, cs := range sets {
			if err := b.ApplyChangeSet(cs); err != nil {
				t.Fatal(err)
			}
		}
		b.Compacted(2000) // the writer's snapshot covers what b applied
		if _, err := b.Apply("Things", core.Op{Kind: core.OpInsert, Entity: entity("p", "2")}); err != nil {
			t.Fatal(err)
		}
		if _, snaps := changeSets(boxB); snaps != 0 {
			t.Fatalf("replica wrote %d snapshots after the writer's", snaps)
		}
	})
}
