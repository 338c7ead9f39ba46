//go:build !js

package native

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/core/stored"
)

// replica is a miniature sync client, the reference for the browser's: a local store
// (one table of entities with a string property V), an outbox of keys changed locally
// and not yet pushed, the server ETag each local entity is based on, and the change feed
// checkpoint it has pulled to. It follows worker/rest/README.md, "Sync protocol" step by step.
type replica struct {
	t          *testing.T
	api        string // the account's endpoint: http://127.0.0.1:port/devstoreaccount1
	table      string
	local      *core.Store
	base       map[string]string // key → the server ETag the local version derives from
	outbox     map[string]bool   // keys changed locally since the last push
	checkpoint string            // the x-tabletop-checkpoint pulled to; "" from the start
	conflicts  []string          // keys whose local change lost to the server's (server wins)
	reconciled int               // how many pulls fell back to reconciliation
	// lost lists the codes of the answers that said the table this replica copied is gone
	// or its history replaced (TableNotFound, TableReplaced, CheckpointFromAnotherStore):
	// the push or pull that met one stopped, keeping the local copy and the outbox, and
	// only adopt (the application's decision) reconciles.
	lost []string

	// compat pulls as against an endpoint without the change feed (Azure, Azurite): a
	// Timestamp filter from mark, less overlap, then a key reconciliation. The first pull
	// sets it when the endpoint's answer shows no change feed.
	compat   bool
	detected bool
	mark     time.Time // the largest Timestamp a complete pass has seen
}

// overlap is how far before its mark a compat pull starts, for Timestamps issued by
// other clocks; Tabletop's single clock needs none, Azure's servers might.
const overlap = time.Minute

func newReplica(t *testing.T, api, table string) *replica {
	local, err := core.Open(core.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { local.Close() })
	if _, err := local.CreateTable(table); err != nil {
		t.Fatal(err)
	}
	return &replica{t: t, api: api, table: table, local: local, base: map[string]string{}, outbox: map[string]bool{}}
}

// key is the replica's name for an entity: "pk/rk" (test keys hold no '/').
func key(pk, rk string) string { return pk + "/" + rk }

func splitKey(k string) (pk, rk string) { pk, rk, _ = strings.Cut(k, "/"); return pk, rk }

// put writes V locally, offline, and queues the key for the next push.
func (r *replica) put(pk, rk, v string) {
	e := &model.Entity{PartitionKey: pk, RowKey: rk, Properties: []model.Property{{Name: "V", Value: model.StringValue(v)}}}
	if _, err := r.local.Apply(r.table, core.Op{Kind: core.OpInsertOrReplace, Entity: e}); err != nil {
		r.t.Fatal(err)
	}
	r.outbox[key(pk, rk)] = true
}

// remove deletes locally, offline, and queues the key for the next push.
func (r *replica) remove(pk, rk string) {
	_, err := r.local.Apply(r.table, core.Op{Kind: core.OpDelete, Entity: &model.Entity{PartitionKey: pk, RowKey: rk}})
	if err != nil {
		r.t.Fatal(err)
	}
	r.outbox[key(pk, rk)] = true
}

// state returns the local table as key → V.
func (r *replica) state() map[string]string {
	out := map[string]string{}
	r.local.View(func(tx *core.Tx) error {
		return tx.Scan(r.table, stored.WholeTable, func(e *model.Entity) bool {
			v, _ := e.Get("V")
			out[key(e.PartitionKey, e.RowKey)] = v.Str()
			return true
		})
	})
	return out
}

// push sends each queued key with If-Match on the ETag its local version is based on: an
// insert when it has none, a replace or a delete otherwise. 412 or 409 is a conflict:
// reported, and resolved by the default policy, server wins (the local copy takes the
// server's current version).
func (r *replica) push() {
	if !r.tableVouched() {
		return
	}
	keys := make([]string, 0, len(r.outbox))
	for k := range r.outbox {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		pk, rk := splitKey(k)
		e, err := r.local.Get(r.table, pk, rk)
		var status int
		var etag, code string
		switch {
		case err == nil && r.base[k] == "":
			status, etag, code = r.send("POST", "/"+r.table, "", body(e))
		case err == nil:
			status, etag, code = r.send("PUT", entityPath(r.table, pk, rk), r.base[k], body(e))
		case r.base[k] == "":
			status = http.StatusNoContent // created and deleted offline: nothing to send
		default:
			status, _, code = r.send("DELETE", entityPath(r.table, pk, rk), r.base[k], "")
		}
		if code == "TableNotFound" {
			r.lost = append(r.lost, code) // not a deletion of k: the table is not there
			return
		}
		delete(r.outbox, k)
		switch status {
		case http.StatusCreated, http.StatusNoContent:
			r.setBase(k, etag)
		case http.StatusNotFound, http.StatusPreconditionFailed, http.StatusConflict:
			r.conflict(k)
		default:
			r.t.Fatalf("push %s: status %d", k, status)
		}
	}
}

// tableVouched asks the change feed, before a push, whether the checkpoint still names the
// table (a request no key matches): a push to a table created again would take its 404s
// for deletions. A lost table stops the push (see lost); a replica with no checkpoint, or
// pulling as from Azure, cannot ask and pushes.
func (r *replica) tableVouched() bool {
	if r.checkpoint == "" || r.compat {
		return true
	}
	q := url.Values{"comp": {"changes"}, "since": {r.checkpoint}, "$top": {"1"}, "$filter": {"PartitionKey lt ''"}}
	resp := r.do("GET", "/"+r.table+"()", q, "", "")
	if isLost(resp) {
		r.lost = append(r.lost, resp.code)
		return false
	}
	return true
}

// isLost reports whether an answer says the table this replica copied is gone or its
// history replaced.
func isLost(resp response) bool {
	return resp.code == "TableNotFound" || resp.code == "TableReplaced" || resp.code == "CheckpointFromAnotherStore"
}

func (r *replica) setBase(k, etag string) {
	if etag == "" {
		delete(r.base, k)
	} else {
		r.base[k] = etag
	}
}

// conflict reads the server's current version of k. If it equals the local one, the
// "conflict" was this replica's own earlier push whose answer was lost: the server's ETag
// is adopted silently. Otherwise k is reported and the server's version wins.
func (r *replica) conflict(k string) {
	pk, rk := splitKey(k)
	local, err := r.local.Get(r.table, pk, rk)
	resp := r.do("GET", entityPath(r.table, pk, rk), nil, "", "")
	switch resp.status {
	case http.StatusOK:
		var e map[string]any
		json.Unmarshal(resp.body, &e)
		if v, _ := e["V"].(string); err == nil && v == valueOf(local) {
			r.setBase(k, e["odata.etag"].(string))
			return
		}
		r.conflicts = append(r.conflicts, k)
		r.apply(e)
	case http.StatusNotFound:
		if err != nil {
			r.setBase(k, "")
			return
		}
		r.conflicts = append(r.conflicts, k)
		r.applyDeletion(pk, rk)
	default:
		r.t.Fatalf("get %s: %d", k, resp.status)
	}
}

func valueOf(e *model.Entity) string {
	v, _ := e.Get("V")
	return v.Str()
}

// pull reads the change feed from the checkpoint to its end. Keys with a change not yet
// pushed are left alone: their push meets the server's new ETag and reports the conflict.
// 410 CheckpointExpired falls back to reconciliation; 404 TableNotFound and 409
// TableReplaced or CheckpointFromAnotherStore stop it (see lost).
func (r *replica) pull() {
	if r.compat {
		r.pullCompat()
		return
	}
	r.pullSeeing(nil)
}

// pullSeeing is pull, adding the key of every entity it reads to seen when seen is not nil.
func (r *replica) pullSeeing(seen map[string]bool) {
	for {
		q := url.Values{"comp": {"changes"}, "since": {r.checkpoint}}
		resp := r.do("GET", "/"+r.table+"()", q, "", "")
		if resp.status == http.StatusGone && resp.code == "CheckpointExpired" {
			r.reconcile()
			return
		}
		if isLost(resp) {
			r.lost = append(r.lost, resp.code)
			return
		}
		page := r.decodePage(resp.body)
		if !r.detected {
			r.detected, r.compat = true, resp.status != http.StatusOK || page.Checkpoint == nil
			if r.compat {
				r.pullCompat()
				return
			}
		}
		if resp.status != http.StatusOK {
			r.t.Fatalf("pull: %d %s", resp.status, resp.code)
		}
		for _, e := range page.Value {
			k := key(e["PartitionKey"].(string), e["RowKey"].(string))
			if seen != nil {
				seen[k] = true
			}
			if !r.outbox[k] {
				r.apply(e)
			}
		}
		for _, d := range page.Deleted {
			if pk, rk := d["PartitionKey"].(string), d["RowKey"].(string); !r.outbox[key(pk, rk)] {
				r.applyDeletion(pk, rk)
			}
		}
		r.checkpoint = *page.Checkpoint
		if !page.More {
			return
		}
	}
}

// adopt is the application's decision after a lost table: take the server's table as it
// is now, reconciling with it.
func (r *replica) adopt() { r.reconcile() }

// reconcile reads the whole feed from the start and deletes every local entity the server
// no longer has, unless it has a change not yet pushed.
func (r *replica) reconcile() {
	r.reconciled++
	r.checkpoint = ""
	seen := map[string]bool{}
	r.pullSeeing(seen)
	for k := range r.state() {
		if !seen[k] && !r.outbox[k] {
			pk, rk := splitKey(k)
			r.applyDeletion(pk, rk)
		}
	}
	for k := range r.base {
		if !seen[k] && !r.outbox[k] {
			delete(r.base, k)
		}
	}
}

// pullCompat pulls with Query Entities only: every entity whose Timestamp is at or after
// the mark less the overlap, in key order, deduplicated by ETag; the mark rises only once
// the pass is complete. Then a key reconciliation finds the deletions.
func (r *replica) pullCompat() {
	q := url.Values{}
	if !r.mark.IsZero() {
		q.Set("$filter", "Timestamp ge datetime'"+r.mark.Add(-overlap).Format(time.RFC3339Nano)+"'")
	}
	mark := r.mark
	r.query(q, func(e map[string]any) {
		k := key(e["PartitionKey"].(string), e["RowKey"].(string))
		if !r.outbox[k] && r.base[k] != e["odata.etag"].(string) {
			r.apply(e)
		}
		if ts, err := time.Parse(time.RFC3339Nano, e["Timestamp"].(string)); err == nil && ts.After(mark) {
			mark = ts
		}
	})
	r.mark = mark
	r.reconcileKeys()
}

// reconcileKeys lists every key on the server and deletes each synced local entity
// (one with a base ETag) that is not listed and has no change waiting to be pushed.
func (r *replica) reconcileKeys() {
	seen := map[string]bool{}
	r.query(url.Values{"$select": {"PartitionKey,RowKey"}}, func(e map[string]any) {
		seen[key(e["PartitionKey"].(string), e["RowKey"].(string))] = true
	})
	for k := range r.base {
		if !seen[k] && !r.outbox[k] {
			pk, rk := splitKey(k)
			r.applyDeletion(pk, rk)
		}
	}
}

// query runs Query Entities with q to its last page, calling fn with each entity.
func (r *replica) query(q url.Values, fn func(e map[string]any)) {
	for {
		resp := r.do("GET", "/"+r.table+"()", q, "", "")
		if resp.status != http.StatusOK {
			r.t.Fatalf("query %v: %d %s", q, resp.status, resp.code)
		}
		for _, e := range r.decodePage(resp.body).Value {
			fn(e)
		}
		npk, nrk := resp.header.Get("x-ms-continuation-NextPartitionKey"), resp.header.Get("x-ms-continuation-NextRowKey")
		if npk == "" && nrk == "" {
			return
		}
		q.Set("NextPartitionKey", npk)
		q.Set("NextRowKey", nrk)
	}
}

// apply stores a pulled entity locally and bases the key on its ETag.
func (r *replica) apply(e map[string]any) {
	pk, rk := e["PartitionKey"].(string), e["RowKey"].(string)
	v, _ := e["V"].(string)
	ent := &model.Entity{PartitionKey: pk, RowKey: rk, Properties: []model.Property{{Name: "V", Value: model.StringValue(v)}}}
	if _, err := r.local.Apply(r.table, core.Op{Kind: core.OpInsertOrReplace, Entity: ent}); err != nil {
		r.t.Fatal(err)
	}
	r.base[key(pk, rk)] = e["odata.etag"].(string)
}

// applyDeletion deletes a pulled deletion locally, if the entity is there.
func (r *replica) applyDeletion(pk, rk string) {
	_, err := r.local.Apply(r.table, core.Op{Kind: core.OpDelete, Entity: &model.Entity{PartitionKey: pk, RowKey: rk}})
	if err != nil && !errors.Is(err, core.ErrEntityNotFound) {
		r.t.Fatal(err)
	}
	delete(r.base, key(pk, rk))
}

type feedPage struct {
	Checkpoint *string          `json:"tabletop.checkpoint"`
	More       bool             `json:"tabletop.more"`
	Value      []map[string]any `json:"value"`
	Deleted    []map[string]any `json:"tabletop.deleted"`
}

// decodePage decodes a page of the feed or of a query; a body that is not one (an error's)
// gives an empty page.
func (r *replica) decodePage(b []byte) *feedPage {
	var p feedPage
	json.Unmarshal(b, &p)
	return &p
}

// send writes an entity and returns the status, the new ETag and the error code.
func (r *replica) send(method, path, ifMatch, payload string) (int, string, string) {
	resp := r.do(method, path, nil, ifMatch, payload)
	return resp.status, resp.header.Get("ETag"), resp.code
}

type response struct {
	status int
	code   string
	header http.Header
	body   []byte
}

// do sends a request signed with Shared Key Lite.
func (r *replica) do(method, path string, q url.Values, ifMatch, payload string) response {
	u := r.api + path
	if q != nil {
		u += "?" + q.Encode()
	}
	req, err := http.NewRequest(method, u, strings.NewReader(payload))
	if err != nil {
		r.t.Fatal(err)
	}
	req.Header.Set("x-ms-version", "2019-02-02")
	req.Header.Set("Accept", "application/json;odata=minimalmetadata")
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Prefer", "return-no-content")
	if ifMatch != "" {
		req.Header.Set("If-Match", ifMatch)
	}
	signLite(req)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		r.t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return response{status: res.StatusCode, code: res.Header.Get("x-ms-error-code"), header: res.Header, body: b}
}

func entityPath(table, pk, rk string) string {
	return fmt.Sprintf("/%s(PartitionKey='%s',RowKey='%s')", table, url.PathEscape(pk), url.PathEscape(rk))
}

func body(e *model.Entity) string {
	b, _ := json.Marshal(map[string]string{"PartitionKey": e.PartitionKey, "RowKey": e.RowKey, "V": valueOf(e)})
	return string(b)
}

func jsonUnmarshal(t *testing.T, b []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatal(err)
	}
}
