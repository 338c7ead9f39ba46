package core_test

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/model"
)

// The data model, "System properties" and "Timestamp": the server manages Timestamp, a
// Timestamp sent by the client is ignored, and it advances on every modification. The
// ETag, as Azure writes it: W/"datetime'…'" with the colons of the Timestamp
// percent-encoded.

func TestRule_Timestamp_SetByServer(t *testing.T) {
	now := time.Date(2021, 8, 31, 15, 40, 49, 672440700, time.UTC)
	s := newRuleStore(t, core.Options{Now: frozenClock(now)}, "Stamps")
	bogus := []model.DateTime{0, model.MinDateTime, model.MaxDateTime, -1}
	kinds := []core.OpKind{core.OpInsert, core.OpReplace, core.OpMerge, core.OpInsertOrReplace, core.OpInsertOrMerge}
	last := model.DateTime(0)
	for i, k := range kinds {
		t.Run(k.String(), func(t *testing.T) {
			e := &model.Entity{PartitionKey: "p", RowKey: "r", Timestamp: bogus[i%len(bogus)]}
			out, err := s.Apply("Stamps", core.Op{Kind: k, Entity: e})
			if err != nil {
				t.Fatal(err)
			}
			got, err := s.Get("Stamps", "p", "r")
			if err != nil {
				t.Fatal(err)
			}
			if got.Timestamp != out.Timestamp || got.Timestamp == e.Timestamp || got.Timestamp <= last {
				t.Fatalf("stored Timestamp %v, returned %v, sent %v, previous %v", got.Timestamp, out.Timestamp, e.Timestamp, last)
			}
			if got.Timestamp < model.DateTimeOf(now) || !got.Timestamp.Valid() {
				t.Fatalf("Timestamp %v is not the server's clock (%v)", got.Timestamp, now)
			}
			last = got.Timestamp
		})
	}
}

func TestRule_Timestamp_AdvancesOnEveryModification(t *testing.T) {
	clocks := map[string]func() time.Time{
		"wall":      time.Now,
		"frozen":    frozenClock(time.Date(2021, 8, 31, 15, 40, 49, 0, time.UTC)),
		"backwards": backwardsClock(time.Date(2021, 8, 31, 15, 40, 49, 0, time.UTC)),
	}
	for name, now := range clocks {
		t.Run(name, func(t *testing.T) {
			s := newRuleStore(t, core.Options{Now: now}, "Aaa", "Bbb")
			seen := map[string]bool{}
			var last model.DateTime
			check := func(e *model.Entity) {
				t.Helper()
				if e.Timestamp <= last || seen[e.ETag()] {
					t.Fatalf("Timestamp %v after %v (ETag %s seen before: %v)", e.Timestamp, last, e.ETag(), seen[e.ETag()])
				}
				last, seen[e.ETag()] = e.Timestamp, true
			}
			check(insert(t, s, "Aaa", &model.Entity{PartitionKey: "p", RowKey: "r"}))
			check(insert(t, s, "Bbb", &model.Entity{PartitionKey: "p", RowKey: "r"})) // across tables
			for _, k := range []core.OpKind{core.OpReplace, core.OpMerge, core.OpInsertOrReplace, core.OpInsertOrMerge, core.OpMerge} {
				// The same content again is still a modification.
				out, err := s.Apply("Aaa", core.Op{Kind: k, Entity: &model.Entity{PartitionKey: "p", RowKey: "r"}})
				if err != nil {
					t.Fatal(err)
				}
				check(out)
			}
			out, err := s.ApplyBatch("Bbb", []core.Op{{Kind: core.OpMerge, Entity: &model.Entity{PartitionKey: "p", RowKey: "r"}}})
			if err != nil {
				t.Fatal(err)
			}
			check(out[0])
		})
	}
}

// backwardsClock returns a clock that goes back one second on each reading.
func backwardsClock(start time.Time) func() time.Time {
	var mu sync.Mutex
	return func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		start = start.Add(-time.Second)
		return start
	}
}

func TestRule_Timestamp_UniqueUnderConcurrency(t *testing.T) {
	s := newRuleStore(t, core.Options{Now: frozenClock(time.Date(2021, 8, 31, 0, 0, 0, 0, time.UTC))}, "Ccc")
	const writers, each = 4, 25
	stamps := make(chan model.DateTime, writers*each)
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				e, err := s.Apply("Ccc", core.Op{Kind: core.OpInsertOrMerge, Entity: &model.Entity{PartitionKey: itoa(w), RowKey: itoa(i % 3)}})
				if err != nil {
					t.Error(err)
					return
				}
				stamps <- e.Timestamp
			}
		}()
	}
	wg.Wait()
	close(stamps)
	seen := map[model.DateTime]bool{}
	for ts := range stamps {
		if seen[ts] {
			t.Fatalf("Timestamp %v issued twice", ts)
		}
		seen[ts] = true
	}
	if len(seen) != writers*each {
		t.Fatalf("%d Timestamps, want %d", len(seen), writers*each)
	}
}

func TestRule_Timestamp_HundredNanosecondPrecision(t *testing.T) {
	now := time.Date(2021, 8, 31, 15, 40, 49, 672440799, time.UTC) // below 100 ns is dropped
	s := newRuleStore(t, core.Options{Now: frozenClock(now)}, "Ppp")
	e := insert(t, s, "Ppp", &model.Entity{PartitionKey: "p", RowKey: "r"})
	if got := e.Timestamp.String(); got != "2021-08-31T15:40:49.6724407Z" {
		t.Fatalf("Timestamp = %s", got)
	}
}

func TestRule_ETag_DerivedFromTimestamp(t *testing.T) {
	ts, err := model.ParseDateTime("2021-08-31T15:40:49.6724407Z")
	if err != nil {
		t.Fatal(err)
	}
	e := &model.Entity{Timestamp: ts}
	if got, want := e.ETag(), `W/"datetime'2021-08-31T15%3A40%3A49.6724407Z'"`; got != want {
		t.Fatalf("ETag = %s, want %s", got, want)
	}
	if got := model.ETagOf(model.MinDateTime); got != `W/"datetime'1601-01-01T00%3A00%3A00.0000000Z'"` {
		t.Fatalf("ETagOf(MinDateTime) = %s", got)
	}
	t.Run("Store", func(t *testing.T) {
		s := newRuleStore(t, core.Options{}, "Eee")
		out := insert(t, s, "Eee", &model.Entity{PartitionKey: "p", RowKey: "r"})
		want := `W/"datetime'` + strings.ReplaceAll(out.Timestamp.String(), ":", "%3A") + `'"`
		if out.ETag() != want {
			t.Fatalf("ETag = %s, want %s", out.ETag(), want)
		}
		// The ETag is a precondition: the current one matches, an old one does not.
		next, err := s.Apply("Eee", core.Op{Kind: core.OpMerge, Entity: &model.Entity{PartitionKey: "p", RowKey: "r"}, IfMatch: out.ETag()})
		if err != nil {
			t.Fatal(err)
		}
		_, err = s.Apply("Eee", core.Op{Kind: core.OpReplace, Entity: &model.Entity{PartitionKey: "p", RowKey: "r"}, IfMatch: out.ETag()})
		wantErr(t, err, core.ErrPreconditionFailed)
		_, err = s.Apply("Eee", core.Op{Kind: core.OpDelete, Entity: &model.Entity{PartitionKey: "p", RowKey: "r"}, IfMatch: next.ETag()})
		wantErr(t, err, nil)
	})
}
