//go:build !js

package rest_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"

	"github.com/tabletopdb/tabletop/worker/rest/auth"
)

// seedAzure creates table Azr with entities (p,1), (p,2) and (x,1).
func seedAzure(t *testing.T) *env {
	e := newEnv(t)
	do(t, signedRequest(t, e, http.MethodPost, "/Tables", `{"TableName":"Azr"}`))
	for _, k := range [][2]string{{"p", "1"}, {"p", "2"}, {"x", "1"}, {"p", "a;b"}, {"p", "%ZZ"}} {
		b := `{"PartitionKey":"` + k[0] + `","RowKey":"` + k[1] + `"}`
		if r := do(t, signedRequest(t, e, http.MethodPost, "/Azr", b)); r.StatusCode != http.StatusCreated {
			t.Fatalf("insert %v: %d %s", k, r.StatusCode, body(r))
		}
	}
	return e
}

// entityCount is how many entities a query answer holds.
func entityCount(resp *http.Response) int { return strings.Count(body(resp), `"RowKey"`) }

func TestRaw_FilterBooleanLiterals(t *testing.T) {
	e := seedAzure(t)
	for _, tc := range []struct {
		filter string
		want   int
	}{
		{"false", 0},
		{"true", 5},
		{"(true and RowKey eq '1') and ((false or PartitionKey eq 'x'))", 1},
		{"not false and PartitionKey eq 'p'", 4},
	} {
		t.Run(tc.filter, func(t *testing.T) {
			resp := do(t, signedRequest(t, e, http.MethodGet, "/Azr()?$filter="+url.QueryEscape(tc.filter), ""))
			if resp.StatusCode != http.StatusOK || entityCount(resp) != tc.want {
				t.Fatalf("%d %s; want 200 with %d entities", resp.StatusCode, body(resp), tc.want)
			}
		})
	}
}

func TestRaw_TopZero(t *testing.T) {
	e := seedAzure(t)
	for _, path := range []string{"/Azr()?$top=0", "/Tables?$top=0"} {
		resp := do(t, signedRequest(t, e, http.MethodGet, path, ""))
		if resp.StatusCode != http.StatusOK || !strings.Contains(body(resp), `"value":[]`) ||
			resp.Header.Get("x-ms-continuation-NextPartitionKey") != "" || resp.Header.Get("x-ms-continuation-NextTableName") != "" {
			t.Fatalf("%s: %d %v %s; want 200, no entities, no continuation", path, resp.StatusCode, resp.Header, body(resp))
		}
	}
	t.Run("ErrTableNotFound", func(t *testing.T) {
		wantRaw(t, do(t, signedRequest(t, e, http.MethodGet, "/Nope()?$top=0", "")), 404, "TableNotFound")
	})
}

func TestRaw_Version(t *testing.T) {
	e := seedAzure(t)
	t.Run("OK", func(t *testing.T) {
		for _, v := range []string{"2019-02-02", "2017-04-17", "2020-12-06", "2021-12-02", "2024-11-04", "2025-11-05", "2019-02-03", "2099-01-01"} {
			req := signedRequest(t, e, http.MethodGet, "/Tables", "")
			req.Header.Set("x-ms-version", v)
			if resp := do(t, req); resp.StatusCode != http.StatusOK || resp.Header.Get("x-ms-version") != v {
				t.Fatalf("%s: %d %s", v, resp.StatusCode, resp.Header.Get("x-ms-version"))
			}
		}
	})
	t.Run("ErrVersionInvalid", func(t *testing.T) {
		for _, v := range []string{"invalid", "2008-12-31", "2019-02-30", "", "2019-02-02x"} {
			req := signedRequest(t, e, http.MethodGet, "/Tables", "")
			req.Header["X-Ms-Version"] = []string{v}
			resp := do(t, req)
			wantRaw(t, resp, 400, "InvalidHeaderValue")
			if resp.Header.Get("x-ms-version") != "2019-02-02" {
				t.Fatalf("%q echoed as %q", v, resp.Header.Get("x-ms-version"))
			}
		}
	})
}

func TestRaw_TrailingSlash(t *testing.T) {
	e := seedAzure(t)
	for _, path := range []string{"/Tables/", "/Tables()/", "/Azr()/", "/Azr/", "/Azr(PartitionKey='p',RowKey='1')/"} {
		if resp := do(t, signedRequest(t, e, http.MethodGet, path, "")); resp.StatusCode != http.StatusOK {
			t.Fatalf("GET %s: %d %s", path, resp.StatusCode, body(resp))
		}
	}
	resp := do(t, signedRequest(t, e, http.MethodPost, "/Tables/", `{"TableName":"Slash"}`))
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("POST /Tables/: %d %s", resp.StatusCode, body(resp))
	}
	t.Run("ErrBadURI", func(t *testing.T) {
		wantRaw(t, do(t, signedRequest(t, e, http.MethodGet, "/Tables//", "")), 400, "InvalidUri")
	})
}

// TestRaw_QueryString checks that a query string is read as Azure reads it: a raw ";" is
// part of a value, and a malformed escape is refused, never dropped.
func TestRaw_QueryString(t *testing.T) {
	e := seedAzure(t)
	t.Run("Semicolon", func(t *testing.T) {
		resp := do(t, signedRequest(t, e, http.MethodGet, "/Azr()?$filter=RowKey%20eq%20'a;b'", ""))
		if resp.StatusCode != http.StatusOK || entityCount(resp) != 1 {
			t.Fatalf("%d %s; want the one entity a;b", resp.StatusCode, body(resp))
		}
		resp = do(t, signedRequest(t, e, http.MethodGet, "/Azr()?$top=1;x", ""))
		wantRaw(t, resp, 400, "InvalidQueryParameterValue")
	})
	t.Run("ErrQueryMalformed", func(t *testing.T) {
		for _, q := range []string{"$filter=RowKey%20eq%20'%ZZ'", "$top=%ZZ", "$top=1&x=%", "NextTableName=%G1"} {
			path := "/Azr()?" + q
			if strings.HasPrefix(q, "Next") {
				path = "/Tables?" + q
			}
			wantRaw(t, do(t, signedRequest(t, e, http.MethodGet, path, "")), 400, "InvalidQueryParameterValue")
		}
	})
}

// queryBatch posts a batch holding one GET of path (below the account), outside any
// changeset, as the .NET client sends a batch of a single retrieve.
func queryBatch(t *testing.T, e *env, path string) *http.Response {
	t.Helper()
	b := "--batch_B\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n" +
		"GET " + e.url + path + " HTTP/1.1\r\nAccept: application/json;odata=minimalmetadata\r\n\r\n\r\n--batch_B--\r\n"
	req := signedRequest(t, e, http.MethodPost, "/$batch", b)
	req.Header.Set("Content-Type", "multipart/mixed; boundary=batch_B")
	return do(t, req)
}

func TestRaw_BatchRetrieve(t *testing.T) {
	e := seedAzure(t)
	resp := queryBatch(t, e, "/Azr(PartitionKey='p',RowKey='2')")
	b := body(resp)
	bb := strings.TrimPrefix(resp.Header.Get("Content-Type"), "multipart/mixed; boundary=")
	if resp.StatusCode != http.StatusAccepted || !strings.HasPrefix(b, "--"+bb+"\r\nContent-Type: application/http\r\n") ||
		!strings.Contains(b, "HTTP/1.1 200 OK\r\n") || !strings.Contains(b, `"RowKey":"2"`) || !strings.Contains(b, "ETag: W/") ||
		!strings.HasSuffix(b, "\r\n--"+bb+"--\r\n") || strings.Contains(b, "changeset") {
		t.Fatalf("got %d %v\n%s", resp.StatusCode, resp.Header, b)
	}
	t.Run("NotFound", func(t *testing.T) {
		resp := queryBatch(t, e, "/Azr(PartitionKey='p',RowKey='none')")
		if resp.StatusCode != http.StatusAccepted || !strings.Contains(body(resp), "HTTP/1.1 404 Not Found\r\n") || !strings.Contains(body(resp), "ResourceNotFound") {
			t.Fatalf("got %d\n%s", resp.StatusCode, body(resp))
		}
	})
	t.Run("InChangeset", func(t *testing.T) {
		// Alone in a changeset, as Azurite's own tests send it: Azure answers it too.
		b := "--batch_B\r\nContent-Type: multipart/mixed; boundary=changeset_C\r\n\r\n--changeset_C\r\nContent-Type: application/http\r\n" +
			"Content-Transfer-Encoding: binary\r\n\r\nGET " + e.url + "/Azr(PartitionKey='p',RowKey='2') HTTP/1.1\r\nAccept: application/json;odata=minimalmetadata\r\n\r\n\r\n" +
			"--changeset_C--\r\n--batch_B--\r\n"
		req := signedRequest(t, e, http.MethodPost, "/$batch", b)
		req.Header.Set("Content-Type", "multipart/mixed; boundary=batch_B")
		resp := do(t, req)
		if got := body(resp); resp.StatusCode != http.StatusAccepted || !strings.Contains(got, "HTTP/1.1 200 OK\r\n") || !strings.Contains(got, `"RowKey":"2"`) {
			t.Fatalf("got %d\n%s", resp.StatusCode, got)
		}
	})
	t.Run("ErrQueryNotAlone", func(t *testing.T) {
		b := "--batch_B\r\nContent-Type: application/http\r\n\r\nGET " + e.url + "/Azr(PartitionKey='p',RowKey='2') HTTP/1.1\r\n\r\n\r\n" +
			"--batch_B\r\nContent-Type: application/http\r\n\r\nGET " + e.url + "/Azr(PartitionKey='p',RowKey='1') HTTP/1.1\r\n\r\n\r\n--batch_B--\r\n"
		req := signedRequest(t, e, http.MethodPost, "/$batch", b)
		req.Header.Set("Content-Type", "multipart/mixed; boundary=batch_B")
		wantRaw(t, do(t, req), 400, "InvalidInput")
	})
}

// TestSecondary reads through the account's secondary location, as Azurite serves it
// (path style, devstoreaccount1-secondary), with the SDK: reads and Get Service Stats
// work, writes are refused.
func TestSecondary(t *testing.T) {
	e := seedAzure(t)
	sec, err := aztables.NewServiceClientWithSharedKey(e.url+"-secondary", e.cred, clientOptions())
	if err != nil {
		t.Fatal(err)
	}
	stats, err := sec.GetStatistics(ctx, nil)
	if err != nil || stats.GeoReplication == nil || *stats.GeoReplication.Status != aztables.GeoReplicationStatusLive {
		t.Fatalf("GetStatistics = %+v, %v", stats, err)
	}
	got, err := sec.NewClient("Azr").GetEntity(ctx, "p", "1", nil)
	if err != nil || !strings.Contains(string(got.Value), `"RowKey":"1"`) {
		t.Fatalf("GetEntity = %s, %v", got.Value, err)
	}
	pager := sec.NewListTablesPager(nil)
	page, err := pager.NextPage(ctx)
	if err != nil || len(page.Tables) != 1 {
		t.Fatalf("ListTables = %+v, %v", page, err)
	}
	t.Run("Host", func(t *testing.T) {
		req := signedRequest(t, e, http.MethodGet, "/Azr()", "")
		req.URL.Path = "/Azr()"
		req.Host = auth.DevAccountName + "-secondary.table.core.windows.net"
		sign(req)
		if resp := do(t, req); resp.StatusCode != http.StatusOK || entityCount(resp) != 5 {
			t.Fatalf("host style: %d %s", resp.StatusCode, body(resp))
		}
	})
	t.Run("ErrSecondaryReadOnly", func(t *testing.T) {
		_, err := sec.NewClient("Azr").AddEntity(ctx, []byte(`{"PartitionKey":"p","RowKey":"new"}`), nil)
		wantCode(t, err, 403, "AuthorizationFailure")
		_, err = sec.CreateTable(ctx, "Other", nil)
		wantCode(t, err, 403, "AuthorizationFailure")
	})
	t.Run("ErrUnknownAccount", func(t *testing.T) {
		req := signedRequest(t, e, http.MethodGet, "/Tables", "")
		req.URL.Path = "/devstoreaccount2-secondary/Tables"
		wantRaw(t, do(t, req), 400, "InvalidUri")
	})
}

func TestRaw_BatchTrailingSlashAndQuery(t *testing.T) {
	e := seedAzure(t)
	b := "--batch_B\r\nContent-Type: application/http\r\n\r\nGET " + e.url + "/Azr(PartitionKey='p',RowKey='1')?$format=%ZZ HTTP/1.1\r\n\r\n\r\n--batch_B--\r\n"
	req := signedRequest(t, e, http.MethodPost, "/$batch/", b)
	req.Header.Set("Content-Type", "multipart/mixed; boundary=batch_B")
	resp := do(t, req)
	if resp.StatusCode != http.StatusAccepted || !strings.Contains(body(resp), "HTTP/1.1 400 Bad Request") || !strings.Contains(body(resp), "InvalidQueryParameterValue") {
		t.Fatalf("POST /$batch/ with a malformed sub-request query: %d\n%s", resp.StatusCode, body(resp))
	}
}

// TestRaw_GetTable: GET /Tables('t') answers the table, as Microsoft's "Querying tables
// and entities" shows, and 404 TableNotFound for a table that does not exist.
func TestRaw_GetTable(t *testing.T) {
	e := seedAzure(t)
	resp := do(t, signedRequest(t, e, http.MethodGet, "/Tables('Azr')", ""))
	if got := body(resp); resp.StatusCode != http.StatusOK || !strings.Contains(got, `"TableName":"Azr"`) || !strings.Contains(got, "@Element") {
		t.Fatalf("GET /Tables('Azr'): %d %s", resp.StatusCode, got)
	}
	t.Run("ErrTableNotFound", func(t *testing.T) {
		wantRaw(t, do(t, signedRequest(t, e, http.MethodGet, "/Tables('Nope')", "")), 404, "TableNotFound")
	})
}
