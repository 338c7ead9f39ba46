//go:build !js

package rest_test

import (
	"net/http"
	"net/url"
	"slices"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/worker/rest"
)

// newWaitEnv starts a server whose change feed requests may wait up to maxWait.
func newWaitEnv(t *testing.T, maxWait time.Duration) *env {
	return newEnvServing(t, core.Options{DeletionRetention: time.Hour}, rest.Options{MaxWait: maxWait})
}

// feedEnd returns the checkpoint of a reader caught up with table's feed.
func feedEnd(t *testing.T, e *env, table string) string {
	t.Helper()
	_, cp := pullAll(t, e, table, "", 1000, url.Values{})
	return cp
}

// waited requests a page of table's feed after since that may wait wait seconds, with
// the extra query q, in the background; it returns the page and how long it took.
func waited(t *testing.T, e *env, table, since, wait string, q url.Values) <-chan timedPage {
	out := make(chan timedPage, 1)
	q.Set("since", since)
	q.Set("wait", wait)
	go func() {
		start := time.Now()
		p := changes(t, e, table, q)
		out <- timedPage{p, time.Since(start)}
	}()
	return out
}

// timedPage is a change feed answer and how long it took to come.
type timedPage struct {
	*changePage
	took time.Duration
}

// insertAfter inserts entity (pk, rk) into table through the store after d.
func insertAfter(t *testing.T, e *env, d time.Duration, table, pk, rk string) {
	time.Sleep(d)
	if _, err := e.store.Apply(table, core.Op{Kind: core.OpInsert, Entity: &model.Entity{PartitionKey: pk, RowKey: rk}}); err != nil {
		t.Error(err)
	}
}

// TestChanges_Wait: a page with no change waits for a write to the table and answers
// with it at once; writes it cannot show (another table, a key outside the SAS's range)
// do not answer it; the wait is cut to the handler's MaxWait, which the answer states.
func TestChanges_Wait(t *testing.T) {
	e := newWaitEnv(t, 5*time.Second)
	e.table(t, "live")
	e.table(t, "other")
	since := feedEnd(t, e, "live")
	t.Run("OK/AnsweredByAWrite", func(t *testing.T) {
		got := waited(t, e, "live", since, "5", url.Values{})
		insertAfter(t, e, 300*time.Millisecond, "live", "p", "1")
		p := <-got
		if p.status != http.StatusOK || !slices.Equal(p.keys(), []string{"p/1"}) || p.Wait == nil || *p.Wait != 5 {
			t.Fatalf("%d %s: %v wait %v", p.status, p.code, p.keys(), p.Wait)
		}
		if p.took < 300*time.Millisecond || p.took > 2*time.Second {
			t.Fatalf("answered after %v, want soon after the write at 300ms", p.took)
		}
		since = p.checkpoint
	})
	t.Run("OK/NotAnsweredByAnotherTable", func(t *testing.T) {
		got := waited(t, e, "live", since, "1", url.Values{})
		insertAfter(t, e, 200*time.Millisecond, "other", "p", "1")
		p := <-got
		if p.status != http.StatusOK || len(p.keys()) != 0 || p.took < time.Second || p.took > 3*time.Second {
			t.Fatalf("%d %s: %v after %v, want an empty page after the 1 s wait", p.status, p.code, p.keys(), p.took)
		}
		since = p.checkpoint
	})
	t.Run("OK/SASRange", func(t *testing.T) {
		q, err := url.ParseQuery(e.tableSASQuery(t, "live", aztables.SASSignatureValues{Permissions: "r", StartPartitionKey: "b", EndPartitionKey: "b"}))
		if err != nil {
			t.Fatal(err)
		}
		got := waited(t, e, "live", since, "5", q)
		insertAfter(t, e, 200*time.Millisecond, "live", "a", "1") // outside the range: keeps waiting
		insertAfter(t, e, 500*time.Millisecond, "live", "b", "1")
		p := <-got
		if p.status != http.StatusOK || !slices.Equal(p.keys(), []string{"b/1"}) || p.took < 700*time.Millisecond {
			t.Fatalf("%d %s: %v after %v, want b/1 after the second write", p.status, p.code, p.keys(), p.took)
		}
	})
	t.Run("OK/CutToMaxWait", func(t *testing.T) {
		p := <-waited(t, e, "live", feedEnd(t, e, "live"), "3600", url.Values{})
		if p.status != http.StatusOK || p.Wait == nil || *p.Wait != 5 || p.took > 8*time.Second {
			t.Fatalf("%d %s: wait %v after %v", p.status, p.code, p.Wait, p.took)
		}
	})
	t.Run("ErrWaitInvalid", func(t *testing.T) {
		for _, w := range []string{"-1", "1.5", "soon", ""} {
			p := changes(t, e, "live", url.Values{"wait": {w}})
			if p.status != http.StatusBadRequest || p.code != "InvalidQueryParameterValue" {
				t.Fatalf("wait=%q: %d %s", w, p.status, p.code)
			}
		}
	})
	t.Run("OK/NotAsked", func(t *testing.T) {
		if p := changes(t, e, "live", url.Values{}); p.Wait != nil {
			t.Fatalf("tabletop.wait = %d in the answer to a request without wait", *p.Wait)
		}
	})
}

// TestChanges_WaitNotServed: a handler without MaxWait (the edge's) answers at once and
// says it waits 0 s, so the client polls.
func TestChanges_WaitNotServed(t *testing.T) {
	e := newWaitEnv(t, 0)
	e.table(t, "live")
	p := <-waited(t, e, "live", feedEnd(t, e, "live"), "30", url.Values{})
	if p.status != http.StatusOK || p.Wait == nil || *p.Wait != 0 || p.took > time.Second {
		t.Fatalf("%d %s: wait %v after %v", p.status, p.code, p.Wait, p.took)
	}
}

// TestChanges_HostWaits: with HostWaits (the edge's objects), an empty page asked to wait
// is answered at once with HoldHeader for the host to hold it; a page with a change is not.
func TestChanges_HostWaits(t *testing.T) {
	e := newEnvServing(t, core.Options{DeletionRetention: time.Hour}, rest.Options{MaxWait: 5 * time.Second, HostWaits: true})
	e.table(t, "live")
	since := feedEnd(t, e, "live")
	q := url.Values{"since": {since}, "wait": {"3"}, "comp": {"changes"}}
	hold := func() (string, int) {
		req, _ := http.NewRequest("GET", e.url+"/live()?"+q.Encode(), nil)
		req.Header.Set("x-ms-version", "2019-02-02")
		req.Header.Set("Accept", "application/json;odata=nometadata")
		sign(req)
		resp := do(t, req)
		return resp.Header.Get(rest.HoldHeader), resp.StatusCode
	}
	start := time.Now()
	if h, status := hold(); h != "3" || status != http.StatusOK || time.Since(start) > time.Second {
		t.Fatalf("empty page: %d, hold %q after %v", status, h, time.Since(start))
	}
	insertAfter(t, e, 0, "live", "p", "1")
	if h, _ := hold(); h != "" {
		t.Fatalf("a page with a change: hold %q, want none", h)
	}
}
