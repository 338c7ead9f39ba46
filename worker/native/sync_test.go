//go:build !js

package native

import (
	"context"
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/worker/rest/auth"
)

// TestSync_TwoReplicas proves the sync protocol sufficient: two replicas edit offline,
// the same entity included, push with If-Match and pull from their checkpoints, across a
// server restart; deletes propagate both ways, the conflict is reported once, and both
// converge to the server's state.
func TestSync_TwoReplicas(t *testing.T) {
	dir := t.TempDir()
	cfg := config{data: dir, quiet: true, web: filepath.Join(dir, "noweb"), retention: time.Hour}
	s := start(t, cfg)
	if _, err := client(t, s, "notes").CreateTable(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	api := s.url + "/" + auth.DevAccountName
	a, b := newReplica(t, api, "notes"), newReplica(t, api, "notes")

	a.put("p", "x1", "a0")
	a.put("p", "x2", "a0")
	a.put("p", "x3", "a0")
	a.push()
	a.pull()
	b.pull()
	converged(t, s, a, b)

	// Offline: both edit x1; A deletes x2 and adds z1; B deletes x3 and adds y1.
	a.put("p", "x1", "a1")
	a.remove("p", "x2")
	a.put("q", "z1", "a1")
	b.put("p", "x1", "b1")
	b.remove("p", "x3")
	b.put("q", "y1", "b1")

	a.push()
	b.push() // x1: 412 against A's version, which wins
	if !slices.Equal(b.conflicts, []string{"p/x1"}) || len(a.conflicts) != 0 {
		t.Fatalf("conflicts: A %v, B %v; want B [p/x1]", a.conflicts, b.conflicts)
	}
	if err := s.stop(); err != nil {
		t.Fatal(err)
	}
	s = start(t, cfg) // deletion records and the clock survive the restart
	a.api, b.api = s.url+"/"+auth.DevAccountName, s.url+"/"+auth.DevAccountName
	a.pull()
	b.pull()
	want := map[string]string{"p/x1": "a1", "q/y1": "b1", "q/z1": "a1"}
	if got := converged(t, s, a, b); !maps.Equal(got, want) {
		t.Fatalf("converged to %v, want %v", got, want)
	}
	if a.reconciled+b.reconciled != 0 {
		t.Fatalf("%d reconciliations; the checkpoints should have held", a.reconciled+b.reconciled)
	}

	// A table deleted and created again voids the checkpoints: the pulls stop, keeping
	// every local entity, until the application adopts the new table.
	svc := client(t, s, "notes")
	if _, err := svc.Delete(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.CreateTable(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	a.put("p", "fresh", "a2")
	lostThen(t, a, b, want, "TableReplaced")
	if got := converged(t, s, a, b); !maps.Equal(got, map[string]string{"p/fresh": "a2"}) {
		t.Fatalf("after the table was recreated: %v", got)
	}
	if a.reconciled != 1 || b.reconciled != 1 {
		t.Fatalf("reconciliations: A %d, B %d; want 1 each", a.reconciled, b.reconciled)
	}

	// A server started afresh, its data removed, is another store: both stop again.
	if err := s.stop(); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(dir, auth.DevAccountName)); err != nil {
		t.Fatal(err)
	}
	s = start(t, cfg)
	a.api, b.api = s.url+"/"+auth.DevAccountName, s.url+"/"+auth.DevAccountName
	if _, err := client(t, s, "notes").CreateTable(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	a.put("p", "new", "a3")
	lostThen(t, a, b, map[string]string{"p/fresh": "a2"}, "CheckpointFromAnotherStore")
	if got := converged(t, s, a, b); !maps.Equal(got, map[string]string{"p/new": "a3"}) {
		t.Fatalf("after the server started afresh: %v", got)
	}
	if a.reconciled != 2 || b.reconciled != 2 {
		t.Fatalf("reconciliations: A %d, B %d; want 2 each", a.reconciled, b.reconciled)
	}
}

// lostThen syncs A (with a change pending) and B, which must stop with code before
// changing anything, B keeping held; then both adopt the server's table, and A pushes
// its change to it.
func lostThen(t *testing.T, a, b *replica, held map[string]string, code string) {
	t.Helper()
	a.push()
	a.pull()
	b.pull()
	if !slices.Equal(a.lost, []string{code, code}) || !slices.Equal(b.lost, []string{code}) {
		t.Fatalf("lost: A %v, B %v; want [%s %[3]s] and [%[3]s]", a.lost, b.lost, code)
	}
	if got := b.state(); !maps.Equal(got, held) {
		t.Fatalf("B after the stop holds %v, want %v", got, held)
	}
	if len(a.outbox) != 1 {
		t.Fatalf("A's outbox after the stop: %v", a.outbox)
	}
	a.lost, b.lost = nil, nil
	a.adopt()
	b.adopt()
	a.push()
	a.pull()
	b.pull()
}

// converged fails unless both replicas hold what the server holds, and returns it.
func converged(t *testing.T, s *started, a, b *replica) map[string]string {
	t.Helper()
	server := map[string]string{}
	pager := client(t, s, "notes").NewListEntitiesPager(nil)
	for pager.More() {
		page, err := pager.NextPage(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		for _, raw := range page.Entities {
			var e map[string]any
			jsonUnmarshal(t, raw, &e)
			server[key(e["PartitionKey"].(string), e["RowKey"].(string))] = e["V"].(string)
		}
	}
	if sa, sb := a.state(), b.state(); !maps.Equal(sa, server) || !maps.Equal(sb, server) {
		t.Fatalf("not converged:\n A %v\n B %v\n server %v", sa, sb, server)
	}
	return server
}

// TestSync_LostAnswerIsNotAConflict: a push applied by the server whose answer never
// reached the client is retried with the old If-Match, meets 412 or 409 against its own
// write, and is settled without reporting a conflict or writing twice.
func TestSync_LostAnswerIsNotAConflict(t *testing.T) {
	s := start(t, config{data: memoryData, quiet: true, retention: time.Hour})
	if _, err := client(t, s, "notes").CreateTable(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	a := newReplica(t, s.url+"/"+auth.DevAccountName, "notes")
	a.put("p", "new", "v1")
	a.put("p", "old", "v1")
	a.push()
	a.put("p", "old", "v2")
	// Both writes reach the server; their answers are "lost": base ETags and outbox stay.
	for _, k := range []string{"p/new2", "p/old"} {
		pk, rk := splitKey(k)
		if k == "p/new2" {
			a.put(pk, rk, "v1")
			a.send("POST", "/notes", "", body(&model.Entity{PartitionKey: pk, RowKey: rk, Properties: []model.Property{{Name: "V", Value: model.StringValue("v1")}}}))
			continue
		}
		e, _ := a.local.Get("notes", pk, rk)
		a.send("PUT", entityPath("notes", pk, rk), a.base[k], body(e))
	}
	before := a.base["p/old"]
	a.push()
	if len(a.conflicts) != 0 || len(a.outbox) != 0 || a.base["p/old"] == before || a.base["p/new2"] == "" {
		t.Fatalf("conflicts %v, outbox %v, base %v", a.conflicts, a.outbox, a.base)
	}
	a.pull()
	b := newReplica(t, a.api, "notes")
	b.pull()
	if got := converged(t, s, a, b); !maps.Equal(got, map[string]string{"p/new": "v1", "p/new2": "v1", "p/old": "v2"}) {
		t.Fatalf("converged to %v", got)
	}
}

// TestSync_WithoutExtension runs the offline scenario with replicas that pull as they
// would from Azure or Azurite: Timestamp filter and key reconciliation, no change feed,
// against a server keeping no deletion records.
func TestSync_WithoutExtension(t *testing.T) {
	s := start(t, config{data: memoryData, quiet: true})
	if _, err := client(t, s, "notes").CreateTable(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	api := s.url + "/" + auth.DevAccountName
	a, b := newReplica(t, api, "notes"), newReplica(t, api, "notes")
	a.compat, b.compat = true, true
	for i := range 1200 { // more than a page, so the passes follow continuations
		a.put("bulk", fmt.Sprintf("%04d", i), "a0")
	}
	a.put("p", "x1", "a0")
	a.put("p", "x2", "a0")
	a.push()
	a.pull()
	b.pull()
	converged(t, s, a, b)

	a.put("p", "x1", "a1")
	a.remove("p", "x2")
	a.remove("bulk", "0600")
	b.put("p", "x1", "b1")
	b.put("bulk", "0601", "b1")
	a.push()
	b.push()
	a.pull()
	b.pull()
	got := converged(t, s, a, b)
	if !slices.Equal(b.conflicts, []string{"p/x1"}) || len(a.conflicts) != 0 {
		t.Fatalf("conflicts: A %v, B %v; want B [p/x1]", a.conflicts, b.conflicts)
	}
	if _, ok := got["p/x2"]; ok || got["p/x1"] != "a1" || got["bulk/0601"] != "b1" || len(got) != 1200 {
		t.Fatalf("converged to %d entities: x1 %q, x2 present %v, bulk/0601 %q", len(got), got["p/x1"], ok, got["bulk/0601"])
	}
}

// TestSync_DetectsTheExtension: a replica uses the change feed where the endpoint answers
// it, and falls back by itself where the endpoint does not: here a proxy that drops
// comp=changes, as an endpoint ignorant of it would (its answer lacks the checkpoint).
func TestSync_DetectsTheExtension(t *testing.T) {
	s := start(t, config{data: memoryData, quiet: true, retention: time.Hour})
	if _, err := client(t, s, "notes").CreateTable(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	target, _ := url.Parse(s.url)
	proxy := httputil.NewSingleHostReverseProxy(target)
	director := proxy.Director
	proxy.Director = func(r *http.Request) {
		director(r)
		q := r.URL.Query()
		q.Del("comp")
		q.Del("since")
		r.URL.RawQuery = q.Encode()
	}
	without := httptest.NewServer(proxy)
	defer without.Close()

	a := newReplica(t, s.url+"/"+auth.DevAccountName, "notes")
	b := newReplica(t, without.URL+"/"+auth.DevAccountName, "notes")
	a.put("p", "x", "a0")
	a.put("p", "y", "a0")
	a.push()
	a.pull()
	b.pull()
	if a.compat || !b.compat {
		t.Fatalf("compat: direct %v, through the proxy %v", a.compat, b.compat)
	}
	b.remove("p", "x")
	b.push()
	a.pull()
	b.pull()
	if got := converged(t, s, a, b); !maps.Equal(got, map[string]string{"p/y": "a0"}) {
		t.Fatalf("converged to %v", got)
	}
}

// TestRun_PurgesExpiredDeletions: a running server drops deletion records once they are
// older than -retention, with no further deletion or restart to trigger it.
func TestRun_PurgesExpiredDeletions(t *testing.T) {
	s := start(t, config{data: memoryData, quiet: true, retention: 500 * time.Millisecond, purgeEvery: 20 * time.Millisecond})
	c := client(t, s, "notes")
	if _, err := c.CreateTable(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	if _, err := c.AddEntity(context.Background(), []byte(`{"PartitionKey":"p","RowKey":"r"}`), nil); err != nil {
		t.Fatal(err)
	}
	if _, err := c.DeleteEntity(context.Background(), "p", "r", nil); err != nil {
		t.Fatal(err)
	}
	r := newReplica(t, s.url+"/"+auth.DevAccountName, "notes")
	deletions := func() int {
		resp := r.do("GET", "/notes()", url.Values{"comp": {"changes"}}, "", "")
		return len(r.decodePage(resp.body).Deleted)
	}
	if n := deletions(); n != 1 {
		t.Fatalf("%d deletion records right after the deletion, want 1", n)
	}
	for deadline := time.Now().Add(5 * time.Second); deletions() != 0; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the expired deletion record was never purged")
		}
	}
}
