//go:build !js

package rest_test

import (
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/tabletopdb/tabletop/core"
)

// handClock is a store clock a test moves by hand.
type handClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *handClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *handClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// oldTableEnv starts a server keeping deletion records for an hour, whose table "feed"
// holds five entities older than its deletion horizon: deletions in table "other" were
// purged after they were written.
func oldTableEnv(t *testing.T) (*env, *handClock) {
	clk := &handClock{t: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	e := newEnvWith(t, core.Options{Now: clk.Now, DeletionRetention: time.Hour})
	feed, other := e.table(t, "feed"), e.table(t, "other")
	for i := range 5 {
		if _, err := feed.AddEntity(ctx, props("p", strconv.Itoa(i), nil), nil); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := other.AddEntity(ctx, props("o", "1", nil), nil); err != nil {
		t.Fatal(err)
	}
	if _, err := other.DeleteEntity(ctx, "o", "1", nil); err != nil {
		t.Fatal(err)
	}
	clk.Advance(2 * time.Hour)
	if n, err := e.store.PurgeDeletions(); n != 1 || err != nil {
		t.Fatalf("PurgeDeletions = %d, %v", n, err)
	}
	return e, clk
}

func TestChanges_FromStart(t *testing.T) {
	want := []string{"p/0", "p/1", "p/2", "p/3", "p/4"}
	t.Run("OK/EntitiesOlderThanTheHorizon", func(t *testing.T) {
		e, _ := oldTableEnv(t)
		got, end := pullAll(t, e, "feed", "", 2, nil)
		if !slices.Equal(got, want) {
			t.Fatalf("feed = %v, want %v", got, want)
		}
		// The end of the feed resumes, and shows what comes later.
		if _, err := e.svc.NewClient("feed").DeleteEntity(ctx, "p", "3", nil); err != nil {
			t.Fatal(err)
		}
		if got, _ := pullAll(t, e, "feed", end, 2, nil); !slices.Equal(got, []string{"-p/3"}) {
			t.Fatalf("after the end: %v", got)
		}
	})
	t.Run("ErrCheckpointExpired/PurgePassesThePosition", func(t *testing.T) {
		e, clk := oldTableEnv(t)
		first := changes(t, e, "feed", url.Values{"$top": {"2"}})
		if first.status != http.StatusOK || !first.more {
			t.Fatalf("first page: %d %s, more %v", first.status, first.code, first.more)
		}
		// An entity the reader holds is deleted, and the record purged, before page 2.
		if _, err := e.svc.NewClient("feed").DeleteEntity(ctx, "p", "0", nil); err != nil {
			t.Fatal(err)
		}
		clk.Advance(2 * time.Hour)
		if n, err := e.store.PurgeDeletions(); n != 1 || err != nil {
			t.Fatalf("PurgeDeletions = %d, %v", n, err)
		}
		p := changes(t, e, "feed", url.Values{"$top": {"2"}, "since": {first.checkpoint}})
		if p.status != http.StatusGone || p.code != "CheckpointExpired" {
			t.Fatalf("page 2: %d %s, want 410 CheckpointExpired", p.status, p.code)
		}
	})
}
