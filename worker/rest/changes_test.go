//go:build !js

package rest_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/worker/rest"
)

// newSyncEnv starts a server whose store keeps deletion records for an hour.
func newSyncEnv(t *testing.T) *env {
	return newEnvWith(t, core.Options{DeletionRetention: time.Hour})
}

// changePage is a decoded change feed answer.
type changePage struct {
	status     int
	code       string
	checkpoint string
	more       bool
	Value      []map[string]any `json:"value"`
	Deleted    []map[string]any `json:"tabletop.deleted"`
	// BodyCheckpoint and BodyMore repeat the headers in the body.
	BodyCheckpoint *string `json:"tabletop.checkpoint"`
	BodyMore       *bool   `json:"tabletop.more"`
	// Wait is the wait the server honours, in the answer to a request with wait.
	Wait *int `json:"tabletop.wait"`
}

// keys lists the page as "pk/rk" for entities, then "-pk/rk" for deletions.
func (p *changePage) keys() []string {
	var out []string
	for _, e := range p.Value {
		out = append(out, e["PartitionKey"].(string)+"/"+e["RowKey"].(string))
	}
	for _, e := range p.Deleted {
		out = append(out, "-"+e["PartitionKey"].(string)+"/"+e["RowKey"].(string))
	}
	return out
}

// changes requests one page of table's change feed with the extra query parameters q,
// signed with Shared Key Lite unless q carries a SAS (sig).
func changes(t *testing.T, e *env, table string, q url.Values) *changePage {
	t.Helper()
	q.Set("comp", "changes")
	req, err := http.NewRequest("GET", e.url+"/"+table+"()?"+q.Encode(), nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("x-ms-version", "2019-02-02")
	req.Header.Set("Accept", "application/json;odata=minimalmetadata")
	if !q.Has("sig") {
		sign(req)
	}
	resp := do(t, req)
	p := &changePage{status: resp.StatusCode, code: resp.Header.Get("x-ms-error-code"),
		checkpoint: resp.Header.Get(rest.CheckpointHeader), more: resp.Header.Get(rest.MoreHeader) == "true"}
	if resp.StatusCode == http.StatusOK {
		if err := json.Unmarshal([]byte(body(resp)), p); err != nil {
			t.Fatalf("decode %s: %v", body(resp), err)
		}
		if resp.Header.Get(rest.MoreHeader) == "" || p.BodyCheckpoint == nil || *p.BodyCheckpoint != p.checkpoint || p.BodyMore == nil || *p.BodyMore != p.more {
			t.Fatalf("checkpoint and more: headers %v, body %s", resp.Header, body(resp))
		}
	}
	return p
}

// pullAll pages through the feed from since with pages of top and returns every change.
func pullAll(t *testing.T, e *env, table, since string, top int, extra url.Values) (keys []string, checkpoint string) {
	t.Helper()
	for range 1000 {
		q := url.Values{"since": {since}, "$top": {strconv.Itoa(top)}}
		for k, v := range extra {
			q[k] = v
		}
		p := changes(t, e, table, q)
		if p.status != http.StatusOK {
			t.Fatalf("status %d %s", p.status, p.code)
		}
		keys = append(keys, p.keys()...)
		since = p.checkpoint
		if !p.more {
			return keys, since
		}
	}
	t.Fatal("the feed never ended")
	return nil, ""
}

func TestChanges_Feed(t *testing.T) {
	e := newSyncEnv(t)
	tc := e.table(t, "feed")
	for _, rk := range []string{"a", "b", "c", "d"} {
		if _, err := tc.AddEntity(ctx, props("p", rk, map[string]any{"N": 1}), nil); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := tc.DeleteEntity(ctx, "p", "b", nil); err != nil {
		t.Fatal(err)
	}
	if _, err := tc.SubmitTransaction(ctx, []aztables.TransactionAction{
		{ActionType: aztables.TransactionTypeDelete, Entity: props("p", "c", nil)},
		{ActionType: aztables.TransactionTypeUpdateMerge, Entity: props("p", "a", map[string]any{"M": 2})},
	}, nil); err != nil {
		t.Fatal(err)
	}
	t.Run("OK", func(t *testing.T) {
		p := changes(t, e, "feed", url.Values{})
		if p.status != http.StatusOK || p.more || p.checkpoint == "" {
			t.Fatalf("status %d %s, more %v, checkpoint %q", p.status, p.code, p.more, p.checkpoint)
		}
		if got, want := p.keys(), []string{"p/d", "p/a", "-p/b", "-p/c"}; !slices.Equal(got, want) {
			t.Fatalf("feed = %v, want %v", got, want)
		}
		_, etag := get(t, tc, "p", "a")
		if p.Value[1]["odata.etag"] != string(etag) || p.Value[1]["M"] != float64(2) {
			t.Fatalf("entity a = %v, want etag %s and M 2", p.Value[1], etag)
		}
		if ts, _ := p.Deleted[0]["Timestamp"].(string); ts == "" {
			t.Fatalf("deletion without Timestamp: %v", p.Deleted[0])
		}
		// Resuming from the last checkpoint finds nothing, and the same checkpoint.
		again := changes(t, e, "feed", url.Values{"since": {p.checkpoint}})
		if len(again.keys()) != 0 || again.more || again.checkpoint != p.checkpoint {
			t.Fatalf("after the end: %v, more %v, checkpoint %q", again.keys(), again.more, again.checkpoint)
		}
	})
	t.Run("OK/Paged", func(t *testing.T) {
		got, _ := pullAll(t, e, "feed", "", 1, nil)
		if want := []string{"p/d", "-p/b", "p/a", "-p/c"}; !slices.Equal(got, want) {
			t.Fatalf("paged feed = %v, want %v", got, want)
		}
	})
	t.Run("OK/KeyFilter", func(t *testing.T) {
		got, _ := pullAll(t, e, "feed", "", 1000, url.Values{"$filter": {"RowKey ge 'b' and RowKey le 'c'"}})
		if want := []string{"-p/b", "-p/c"}; !slices.Equal(got, want) {
			t.Fatalf("filtered feed = %v, want %v", got, want)
		}
	})
	t.Run("ErrCheckpointInvalid", func(t *testing.T) {
		for _, since := range []string{"!!", "AA", "_w", strings.Repeat("A", 40)} {
			p := changes(t, e, "feed", url.Values{"since": {since}})
			if p.status != http.StatusBadRequest || p.code != "InvalidQueryParameterValue" {
				t.Fatalf("since %q: %d %s", since, p.status, p.code)
			}
		}
	})
	t.Run("ErrChangesFilter", func(t *testing.T) {
		p := changes(t, e, "feed", url.Values{"$filter": {"N eq 1"}})
		if p.status != http.StatusBadRequest || p.code != "InvalidQueryParameterValue" {
			t.Fatalf("%d %s", p.status, p.code)
		}
	})
	t.Run("ErrTopInvalid", func(t *testing.T) {
		p := changes(t, e, "feed", url.Values{"$top": {"1001"}})
		if p.status != http.StatusBadRequest || p.code != "InvalidQueryParameterValue" {
			t.Fatalf("%d %s", p.status, p.code)
		}
	})
	t.Run("ErrTableNotFound", func(t *testing.T) {
		p := changes(t, e, "nothere", url.Values{})
		if p.status != http.StatusNotFound || p.code != "TableNotFound" {
			t.Fatalf("%d %s", p.status, p.code)
		}
	})
	t.Run("ErrCheckpointOtherStore", func(t *testing.T) {
		// A server started afresh is another store: 409, not the 410 that makes a client reconcile.
		cp := changes(t, e, "feed", url.Values{}).checkpoint
		other := newSyncEnv(t)
		other.table(t, "feed")
		p := changes(t, other, "feed", url.Values{"since": {cp}})
		if p.status != http.StatusConflict || p.code != "CheckpointFromAnotherStore" {
			t.Fatalf("%d %s", p.status, p.code)
		}
	})
	t.Run("ErrTableReplaced", func(t *testing.T) {
		cp := changes(t, e, "feed", url.Values{}).checkpoint
		if _, err := e.svc.DeleteTable(ctx, "feed", nil); err != nil {
			t.Fatal(err)
		}
		e.table(t, "Feed")
		p := changes(t, e, "feed", url.Values{"since": {cp}})
		if p.status != http.StatusConflict || p.code != "TableReplaced" {
			t.Fatalf("%d %s", p.status, p.code)
		}
		if p := changes(t, e, "feed", url.Values{}); p.status != http.StatusOK || len(p.keys()) != 0 {
			t.Fatalf("from the start: %d %v", p.status, p.keys())
		}
	})
}

// TestChanges_InvisibleToAzureClients: deletion records change nothing an unmodified
// client sees: queries, Get Entity and Query Tables, by raw HTTP and by the Go SDK.
func TestChanges_InvisibleToAzureClients(t *testing.T) {
	e := newSyncEnv(t)
	tc := e.table(t, "seen")
	for _, rk := range []string{"a", "b"} {
		if _, err := tc.AddEntity(ctx, props("p", rk, nil), nil); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := tc.DeleteEntity(ctx, "p", "a", nil); err != nil {
		t.Fatal(err)
	}
	e.table(t, "gone")
	if _, err := e.svc.DeleteTable(ctx, "gone", nil); err != nil {
		t.Fatal(err)
	}
	if n := countEntities(t, tc); n != 1 {
		t.Fatalf("SDK lists %d entities, want 1", n)
	}
	_, err := tc.GetEntity(ctx, "p", "a", nil)
	wantCode(t, err, http.StatusNotFound, "ResourceNotFound")
	pager := e.svc.NewListTablesPager(nil)
	var names []string
	for pager.More() {
		page, err := pager.NextPage(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, tb := range page.Tables {
			names = append(names, *tb.Name)
		}
	}
	if !slices.Equal(names, []string{"seen"}) {
		t.Fatalf("tables = %v", names)
	}
	for _, path := range []string{"/seen()", "/seen()?since=", "/seen(PartitionKey='p',RowKey='b')", "/Tables"} {
		resp := do(t, signedRequest(t, e, "GET", path, ""))
		if resp.StatusCode != http.StatusOK || strings.Contains(body(resp), "tabletop") || strings.Contains(body(resp), `"a"`) ||
			resp.Header.Get(rest.CheckpointHeader) != "" {
			t.Fatalf("GET %s: %d %s %v", path, resp.StatusCode, body(resp), resp.Header)
		}
	}
}

// TestChanges_Authorization: the feed is authorized as Query Entities, and a table SAS's
// key range limits it, deletions included.
func TestChanges_Authorization(t *testing.T) {
	e := newSyncEnv(t)
	tc := e.table(t, "guarded")
	e.table(t, "other")
	for _, pk := range []string{"a", "b", "c"} {
		if _, err := tc.AddEntity(ctx, props(pk, "1", nil), nil); err != nil {
			t.Fatal(err)
		}
		if _, err := tc.AddEntity(ctx, props(pk, "2", nil), nil); err != nil {
			t.Fatal(err)
		}
		if _, err := tc.DeleteEntity(ctx, pk, "2", nil); err != nil {
			t.Fatal(err)
		}
	}
	sas := func(name string, v aztables.SASSignatureValues) url.Values {
		q, err := url.ParseQuery(e.tableSASQuery(t, name, v))
		if err != nil {
			t.Fatal(err)
		}
		return q
	}
	t.Run("OK/TableSASKeyRange", func(t *testing.T) {
		q := sas("guarded", aztables.SASSignatureValues{Permissions: "r", StartPartitionKey: "b", EndPartitionKey: "b"})
		p := changes(t, e, "guarded", q)
		if got, want := p.keys(), []string{"b/1", "-b/2"}; p.status != http.StatusOK || !slices.Equal(got, want) {
			t.Fatalf("%d %s: %v, want %v", p.status, p.code, got, want)
		}
	})
	accountSAS := func(srt aztables.AccountSASResourceTypes, sp aztables.AccountSASPermissions) url.Values {
		qps, err := aztables.AccountSASSignatureValues{
			Protocol: aztables.SASProtocolHTTPSandHTTP, Permissions: sp.String(), Services: "t",
			ResourceTypes: srt.String(), ExpiryTime: time.Now().Add(time.Hour).UTC(),
		}.Sign(e.cred)
		if err != nil {
			t.Fatal(err)
		}
		q, _ := url.ParseQuery(qps.Encode())
		return q
	}
	t.Run("OK/AccountSAS", func(t *testing.T) {
		q := accountSAS(aztables.AccountSASResourceTypes{Object: true}, aztables.AccountSASPermissions{Read: true})
		if p := changes(t, e, "guarded", q); p.status != http.StatusOK || len(p.keys()) != 6 {
			t.Fatalf("%d %s: %v", p.status, p.code, p.keys())
		}
	})
	t.Run("OK/SharedKey", func(t *testing.T) {
		if p := changes(t, e, "guarded", url.Values{}); len(p.keys()) != 6 {
			t.Fatalf("%d %s: %v", p.status, p.code, p.keys())
		}
	})
	for _, tc := range []struct {
		name   string
		q      url.Values
		status int
		code   string
	}{
		{"ErrPermissionMismatch", sas("guarded", aztables.SASSignatureValues{Permissions: "au"}), http.StatusForbidden, "AuthorizationPermissionMismatch"},
		{"ErrOtherTable", sas("other", aztables.SASSignatureValues{Permissions: "r"}), http.StatusForbidden, "AuthorizationFailure"},
		{"ErrUnsigned", url.Values{"sig": {"bad"}}, http.StatusForbidden, "AuthenticationFailed"},
		{"ErrAccountSASPermission", accountSAS(aztables.AccountSASResourceTypes{Object: true}, aztables.AccountSASPermissions{Write: true, Add: true}), http.StatusForbidden, "AuthorizationPermissionMismatch"},
		{"ErrAccountSASResourceType", accountSAS(aztables.AccountSASResourceTypes{Container: true}, aztables.AccountSASPermissions{Read: true}), http.StatusForbidden, "AuthorizationResourceTypeMismatch"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := changes(t, e, "guarded", tc.q)
			if p.status != tc.status || p.code != tc.code {
				t.Fatalf("%d %s, want %d %s", p.status, p.code, tc.status, tc.code)
			}
		})
	}
}
