//go:build !js

package rest_test

import (
	"net/http"
	"strings"
	"testing"
)

// TestRaw_IfNoneMatch: Azure refuses If-None-Match on an update, merge, upsert or delete
// with 400 InvalidInput ("Table service error codes"), alone or beside If-Match, and the
// entity is left as it was; inside a changeset the batch fails the same way. A read with
// If-None-Match is served as without it.
func TestRaw_IfNoneMatch(t *testing.T) {
	e := newEnv(t)
	do(t, signedRequest(t, e, http.MethodPost, "/Tables", `{"TableName":"Cond"}`))
	do(t, signedRequest(t, e, http.MethodPost, "/Cond", `{"PartitionKey":"p","RowKey":"r","A":1}`))
	const path = "/Cond(PartitionKey='p',RowKey='r')"
	const both = "Both If-Match and If-None-Match HTTP headers cannot be specified at the same time."
	for _, tc := range []struct {
		name, method, ifMatch, body, message string
	}{
		{"DeleteBoth", http.MethodDelete, "*", "", both},
		{"Delete", http.MethodDelete, "", "", "If-None-Match HTTP header cannot be specified for DELETE operations."},
		{"Upsert", http.MethodPut, "", `{"B":2}`, "If-None-Match HTTP header cannot be specified for PUT operations."},
		{"UpdateBoth", http.MethodPut, "*", `{"B":2}`, both},
		{"MergeBoth", "MERGE", "*", `{"B":2}`, both},
		{"Merge", http.MethodPatch, "", `{"B":2}`, "If-None-Match HTTP header cannot be specified for PUT operations."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := signedRequest(t, e, tc.method, path, tc.body)
			req.Header.Set("If-None-Match", "*")
			if tc.ifMatch != "" {
				req.Header.Set("If-Match", tc.ifMatch)
			}
			resp := do(t, req)
			wantRaw(t, resp, 400, "InvalidInput")
			if !strings.Contains(body(resp), tc.message) {
				t.Fatalf("message: %s, want %q", body(resp), tc.message)
			}
			wantUntouched(t, e, path)
		})
	}
	t.Run("Batch", func(t *testing.T) {
		del := "DELETE {base}" + path + " HTTP/1.1\r\nAccept: application/json\r\nIf-Match: *\r\nIf-None-Match: *\r\n\r\n"
		resp, _, _ := postBatch(t, e, jsBatch(e.url, del))
		if got := body(resp); !strings.Contains(got, "HTTP/1.1 400 Bad Request") || !strings.Contains(got, `"value":"0:`+both) {
			t.Fatalf("got %s", got)
		}
		wantUntouched(t, e, path)
	})
	t.Run("Read", func(t *testing.T) {
		req := signedRequest(t, e, http.MethodGet, path, "")
		req.Header.Set("If-None-Match", "*")
		if resp := do(t, req); resp.StatusCode != http.StatusOK {
			t.Fatalf("Get Entity with If-None-Match: %d %s", resp.StatusCode, body(resp))
		}
	})
}

// wantUntouched checks that the entity at path still holds A=1 and nothing else.
func wantUntouched(t *testing.T, e *env, path string) {
	t.Helper()
	resp := do(t, signedRequest(t, e, http.MethodGet, path, ""))
	if got := body(resp); resp.StatusCode != http.StatusOK || !strings.Contains(got, `"A":1`) || strings.Contains(got, `"B"`) {
		t.Fatalf("the entity changed: %d %s", resp.StatusCode, got)
	}
}
