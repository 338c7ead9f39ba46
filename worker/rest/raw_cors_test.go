//go:build !js

package rest_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"

	"github.com/tabletopdb/tabletop/worker/rest"
	"github.com/tabletopdb/tabletop/worker/rest/auth"
)

// corsOrigin is the origin the CORS rule of TestRaw_CORSOnErrors allows.
const corsOrigin = "https://app.example"

// TestRaw_CORSOnErrors: an error answer carries the CORS headers a success would, so that
// a browser reads its Azure code instead of failing with a network error: failed
// authentication, a missing table, a body too large or too slow, and a request naming an
// account that is not served (answered with the first account's rules, its preflight
// too).
func TestRaw_CORSOnErrors(t *testing.T) {
	e := newEnvOpts(t, rest.Options{BodyTimeout: 300 * time.Millisecond})
	rule := &aztables.CorsRule{AllowedOrigins: to.Ptr(corsOrigin), AllowedMethods: to.Ptr("GET,POST,PUT,DELETE,MERGE"),
		AllowedHeaders: to.Ptr("*"), ExposedHeaders: to.Ptr("x-ms-*"), MaxAgeInSeconds: to.Ptr[int32](60)}
	cred, _ := aztables.NewSharedKeyCredential(auth.DevAccountName, auth.DevAccountKey)
	svc, _ := aztables.NewServiceClientWithSharedKey(e.url, cred, clientOptions())
	if _, err := svc.SetProperties(ctx, aztables.ServiceProperties{Cors: []*aztables.CorsRule{rule}}, nil); err != nil {
		t.Fatal(err)
	}
	badSig := signedRequest(t, e, http.MethodGet, "/Hostile()", "")
	badSig.Header.Set("Authorization", "SharedKeyLite "+auth.DevAccountName+":"+strings.Repeat("A", 43)+"=")
	otherAccount := signedRequest(t, e, http.MethodGet, "/Hostile()", "")
	otherAccount.Header.Set("Authorization", "SharedKeyLite someoneelse:"+strings.Repeat("A", 43)+"=")
	unknown, _ := http.NewRequest(http.MethodGet, "http://"+e.addr+"/someoneelse/Tables", nil)
	tooLarge := signedRequest(t, e, http.MethodPost, "/Hostile", `{"PartitionKey":"p","RowKey":"r","S":"`+strings.Repeat("x", 5<<20)+`"}`)
	for _, tc := range []struct {
		name   string
		req    *http.Request
		status int
		code   string
	}{
		{"ErrAuthenticationFailed", badSig, 403, "AuthenticationFailed"},
		{"ErrAuthenticationFailedAccount", otherAccount, 403, "AuthenticationFailed"},
		{"ErrTableNotFound", signedRequest(t, e, http.MethodGet, "/Nope()", ""), 404, "TableNotFound"},
		{"ErrBodyTooLarge", tooLarge, 413, "RequestBodyTooLarge"},
		{"ErrUnknownAccount", unknown, 400, "InvalidUri"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.req.Header.Set("Origin", corsOrigin)
			resp := do(t, tc.req)
			wantRaw(t, resp, tc.status, tc.code)
			wantCORS(t, resp.Header)
		})
	}
	t.Run("ErrBodyTimeout", func(t *testing.T) {
		req := signedRequest(t, e, http.MethodPost, "/Hostile", "")
		conn, br := rawConn(t, e, req, "Origin: "+corsOrigin+"\r\nContent-Type: application/json\r\nContent-Length: 100\r\n", `{"Partit`)
		conn.SetReadDeadline(time.Now().Add(5 * time.Second))
		resp, err := http.ReadResponse(br, nil)
		if err != nil || resp.StatusCode != http.StatusRequestTimeout {
			t.Fatalf("stalled body: %v %v", resp, err)
		}
		wantCORS(t, resp.Header)
	})
	t.Run("PreflightUnknownAccount", func(t *testing.T) {
		req, _ := http.NewRequest(http.MethodOptions, "http://"+e.addr+"/someoneelse/Tables", nil)
		req.Header.Set("Origin", corsOrigin)
		req.Header.Set("Access-Control-Request-Method", "GET")
		req.Header.Set("Access-Control-Request-Headers", "authorization,x-ms-date")
		resp := do(t, req)
		if resp.StatusCode != http.StatusOK || resp.Header.Get("Access-Control-Allow-Origin") != corsOrigin {
			t.Fatalf("preflight for an account not served: %d %v", resp.StatusCode, resp.Header)
		}
	})
}

// wantCORS checks that an answer to a request from corsOrigin lets the browser read it
// and its error code.
func wantCORS(t *testing.T, h http.Header) {
	t.Helper()
	if h.Get("Access-Control-Allow-Origin") != corsOrigin || !strings.Contains(strings.ToLower(h.Get("Access-Control-Expose-Headers")), "x-ms-error-code") {
		t.Fatalf("no CORS headers for %s: %v", corsOrigin, h)
	}
}
