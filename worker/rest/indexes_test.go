//go:build !js

package rest_test

import (
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/runtime"
	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"

	"github.com/tabletopdb/tabletop/worker/rest"
)

// indexRequest sends method to table's index extension for prop ("" for none), signed
// with Shared Key Lite unless sas (a query string) is given.
func indexRequest(t *testing.T, e *env, method, table, prop, sas string) *http.Response {
	t.Helper()
	q := url.Values{"comp": {"indexes"}}
	if prop != "" {
		q.Set("property", prop)
	}
	path := "/" + table + "?" + q.Encode()
	if sas != "" {
		path += "&" + sas
	}
	req, err := http.NewRequest(method, e.url+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("x-ms-version", "2019-02-02")
	req.Header.Set("Accept", "application/json;odata=minimalmetadata")
	if sas == "" {
		sign(req)
	}
	return do(t, req)
}

// queryPlan runs Query Entities with filter and returns the plan header and the number
// of entities in the page.
func queryPlan(t *testing.T, tc *aztables.Client, filter string) (string, int) {
	t.Helper()
	var plan string
	var raw *http.Response
	pager := tc.NewListEntitiesPager(&aztables.ListEntitiesOptions{Filter: &filter})
	page, err := pager.NextPage(runtime.WithCaptureResponse(ctx, &raw))
	if err != nil {
		t.Fatal(err)
	}
	plan = raw.Header.Get(rest.PlanHeader)
	return plan, len(page.Entities)
}

func TestIndexes(t *testing.T) {
	e := newEnv(t)
	tc := e.table(t, "Shop")
	for i := range 30 {
		if _, err := tc.AddEntity(ctx, props("p"+string(rune('a'+i%3)), string(rune('a'+i)), map[string]any{"Price": i % 5}), nil); err != nil {
			t.Fatal(err)
		}
	}
	t.Run("OK/ScanWithoutIndex", func(t *testing.T) {
		if plan, n := queryPlan(t, tc, "Price eq 2"); plan != "table scan" || n != 6 {
			t.Fatalf("plan %q, %d entities", plan, n)
		}
	})
	t.Run("OK/Create", func(t *testing.T) {
		for range 2 { // declaring twice is the same as once
			if r := indexRequest(t, e, "PUT", "Shop", "Price", ""); r.StatusCode != http.StatusNoContent {
				t.Fatalf("status %d %s", r.StatusCode, body(r))
			}
		}
		if plan, n := queryPlan(t, tc, "Price eq 2"); plan != "index(Price) eq" || n != 6 {
			t.Fatalf("plan %q, %d entities", plan, n)
		}
		if plan, n := queryPlan(t, tc, "Price ge 3.5 and Price lt 5"); plan != "index(Price) range and index(Price) range" || n != 6 {
			t.Fatalf("plan %q, %d entities", plan, n)
		}
		if plan, _ := queryPlan(t, tc, "PartitionKey eq 'pa' and Price eq 2"); plan != "partition scan" {
			t.Fatalf("plan %q", plan)
		}
	})
	t.Run("OK/List", func(t *testing.T) {
		r := indexRequest(t, e, "GET", "shop", "", "")
		if r.StatusCode != http.StatusOK || body(r) != `{"value":[{"Property":"Price"}]}` {
			t.Fatalf("status %d %s", r.StatusCode, body(r))
		}
	})
	t.Run("OK/Drop", func(t *testing.T) {
		if r := indexRequest(t, e, "DELETE", "Shop", "Price", ""); r.StatusCode != http.StatusNoContent {
			t.Fatalf("status %d %s", r.StatusCode, body(r))
		}
		if plan, _ := queryPlan(t, tc, "Price eq 2"); plan != "table scan" {
			t.Fatalf("plan %q", plan)
		}
		if r := indexRequest(t, e, "GET", "Shop", "", ""); body(r) != `{"value":[]}` {
			t.Fatalf("list %s", body(r))
		}
	})
	errs := []struct {
		name, method, table, prop string
		status                    int
		code                      string
	}{
		{"ResourceNotFound", "DELETE", "Shop", "Price", 404, "ResourceNotFound"},
		{"TableNotFound", "PUT", "Nope", "Price", 404, "TableNotFound"},
		{"PropertyNameInvalid", "PUT", "Shop", "RowKey", 400, "PropertyNameInvalid"},
		{"PropertyNameInvalidIdentifier", "PUT", "Shop", "1x", 400, "PropertyNameInvalid"},
		{"InvalidQueryParameterValue", "PUT", "Shop", "", 400, "InvalidQueryParameterValue"},
		{"MethodNotAllowed", "POST", "Shop", "Price", 405, "MethodNotAllowed"},
	}
	for _, c := range errs {
		t.Run("Err"+c.name, func(t *testing.T) {
			r := indexRequest(t, e, c.method, c.table, c.prop, "")
			if r.StatusCode != c.status || r.Header.Get("x-ms-error-code") != c.code {
				t.Fatalf("status %d %q, want %d %q: %s", r.StatusCode, r.Header.Get("x-ms-error-code"), c.status, c.code, body(r))
			}
		})
	}
}

func TestIndexes_Authorization(t *testing.T) {
	e := newEnv(t)
	e.table(t, "Shop")
	accountSAS := func(perms aztables.AccountSASPermissions) string {
		qps, err := aztables.AccountSASSignatureValues{
			Protocol: aztables.SASProtocolHTTPSandHTTP, Permissions: perms.String(), Services: "t",
			ResourceTypes: aztables.AccountSASResourceTypes{Container: true, Object: true}.String(), ExpiryTime: time.Now().Add(time.Hour).UTC(),
		}.Sign(e.cred)
		if err != nil {
			t.Fatal(err)
		}
		return qps.Encode()
	}
	readSAS := e.tableSASQuery(t, "Shop", aztables.SASSignatureValues{Permissions: aztables.SASPermissions{Read: true, Add: true, Update: true, Delete: true}.String()})
	cases := []struct {
		name, method, sas string
		status            int
	}{
		{"OK/AccountSASCreate", "PUT", accountSAS(aztables.AccountSASPermissions{Create: true}), 204},
		{"OK/TableSASList", "GET", readSAS, 200},
		{"OK/AccountSASDelete", "DELETE", accountSAS(aztables.AccountSASPermissions{Delete: true}), 204},
		{"ErrAuthorizationFailure/TableSASCreate", "PUT", readSAS, 403},
		{"ErrAuthorizationFailure/AccountSASWithoutCreate", "PUT", accountSAS(aztables.AccountSASPermissions{Read: true, List: true, Add: true, Update: true}), 403},
		{"ErrAuthorizationFailure/TableSASDelete", "DELETE", readSAS, 403},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if r := indexRequest(t, e, c.method, "Shop", "Price", c.sas); r.StatusCode != c.status {
				t.Fatalf("status %d, want %d: %s", r.StatusCode, c.status, body(r))
			}
		})
	}
}
