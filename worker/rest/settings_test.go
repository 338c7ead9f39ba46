//go:build !js

package rest_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"
)

func TestSDK_AccessPolicy(t *testing.T) {
	e := newEnv(t)
	c := e.table(t, "Guarded")
	start := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
	expiry := time.Now().Add(time.Hour).UTC().Truncate(time.Second)
	t.Run("OK", func(t *testing.T) {
		_, err := c.SetAccessPolicy(ctx, &aztables.SetAccessPolicyOptions{TableACL: []*aztables.SignedIdentifier{
			{ID: to.Ptr("readers"), AccessPolicy: &aztables.AccessPolicy{Start: &start, Expiry: &expiry, Permission: to.Ptr("r")}},
			{ID: to.Ptr("writers"), AccessPolicy: &aztables.AccessPolicy{Start: &start, Expiry: &expiry, Permission: to.Ptr("au")}},
		}})
		if err != nil {
			t.Fatal(err)
		}
		got, err := c.GetAccessPolicy(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(got.SignedIdentifiers) != 2 || *got.SignedIdentifiers[1].ID != "writers" ||
			*got.SignedIdentifiers[1].AccessPolicy.Permission != "au" || !got.SignedIdentifiers[0].AccessPolicy.Expiry.Equal(expiry) {
			t.Fatalf("got %+v", got.SignedIdentifiers)
		}
	})
	t.Run("StoredPolicySAS", func(t *testing.T) {
		readers := e.tableSAS(t, "Guarded", aztables.SASSignatureValues{Identifier: "readers"})
		if _, err := readers.NewListEntitiesPager(nil).NextPage(ctx); err != nil {
			t.Fatal(err)
		}
		_, err := readers.AddEntity(ctx, props("p", "r", nil), nil)
		wantCode(t, err, http.StatusForbidden, "AuthorizationPermissionMismatch")
	})
	t.Run("ErrPolicyFieldRepeated", func(t *testing.T) {
		// A SAS naming a policy that sets sp, and setting sp too: 400, as Set Table ACL's
		// documentation says, not 403.
		repeated := e.tableSAS(t, "Guarded", aztables.SASSignatureValues{Identifier: "readers", Permissions: "r"})
		_, err := repeated.NewListEntitiesPager(nil).NextPage(ctx)
		wantCode(t, err, http.StatusBadRequest, "InvalidQueryParameterValue")
	})
	t.Run("ErrTooManyPolicies", func(t *testing.T) {
		// The SDK refuses more than five itself: send the XML raw.
		var b strings.Builder
		b.WriteString("<SignedIdentifiers>")
		for i := 0; i < 6; i++ {
			fmt.Fprintf(&b, "<SignedIdentifier><Id>id%d</Id><AccessPolicy><Permission>r</Permission></AccessPolicy></SignedIdentifier>", i)
		}
		b.WriteString("</SignedIdentifiers>")
		req := signedRequest(t, e, http.MethodPut, "/Guarded?comp=acl", b.String())
		req.Header.Set("Content-Type", "application/xml")
		resp := do(t, req)
		if resp.StatusCode != http.StatusBadRequest || resp.Header.Get("x-ms-error-code") != "InvalidXmlDocument" ||
			!strings.HasPrefix(body(resp), `<?xml version="1.0" encoding="utf-8"?><Error><Code>InvalidXmlDocument</Code>`) {
			t.Fatalf("got %d %v\n%s", resp.StatusCode, resp.Header, body(resp))
		}
	})
	t.Run("ErrSASOwnerOnly", func(t *testing.T) {
		sas := e.tableSAS(t, "Guarded", aztables.SASSignatureValues{Permissions: "raud"})
		_, err := sas.GetAccessPolicy(ctx, nil)
		wantCode(t, err, http.StatusForbidden, "AuthorizationFailure")
	})
	t.Run("ErrTableNotFound", func(t *testing.T) {
		_, err := e.svc.NewClient("NoTable").GetAccessPolicy(ctx, nil)
		wantCode(t, err, http.StatusNotFound, "TableNotFound")
	})
}

func TestSDK_ServiceProperties(t *testing.T) {
	e := newEnv(t)
	t.Run("Defaults", func(t *testing.T) {
		got, err := e.svc.GetProperties(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got.Logging == nil || *got.Logging.Version != "1.0" || len(got.Cors) != 0 {
			t.Fatalf("got %+v", got.ServiceProperties)
		}
	})
	rule := &aztables.CorsRule{AllowedOrigins: to.Ptr("https://app.example"), AllowedMethods: to.Ptr("GET,POST"),
		AllowedHeaders: to.Ptr("x-ms-*,content-type"), ExposedHeaders: to.Ptr("x-ms-request-id"), MaxAgeInSeconds: to.Ptr[int32](600)}
	t.Run("SetCors", func(t *testing.T) {
		if _, err := e.svc.SetProperties(ctx, aztables.ServiceProperties{Cors: []*aztables.CorsRule{rule}}, nil); err != nil {
			t.Fatal(err)
		}
		got, err := e.svc.GetProperties(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Cors) != 1 || *got.Cors[0].AllowedOrigins != "https://app.example" || *got.Cors[0].MaxAgeInSeconds != 600 || got.Logging == nil {
			t.Fatalf("got %+v", got.ServiceProperties)
		}
	})
	t.Run("CorsApplies", func(t *testing.T) {
		req, _ := http.NewRequest(http.MethodOptions, e.url+"/Tables", nil)
		req.Header.Set("Origin", "https://app.example")
		req.Header.Set("Access-Control-Request-Method", "POST")
		req.Header.Set("Access-Control-Request-Headers", "x-ms-date,content-type")
		resp := do(t, req)
		if resp.StatusCode != http.StatusOK || resp.Header.Get("Access-Control-Allow-Origin") != "https://app.example" ||
			resp.Header.Get("Access-Control-Max-Age") != "600" {
			t.Fatalf("preflight: %d %v", resp.StatusCode, resp.Header)
		}
		req, _ = http.NewRequest(http.MethodOptions, e.url+"/Tables", nil)
		req.Header.Set("Origin", "https://evil.example")
		req.Header.Set("Access-Control-Request-Method", "POST")
		if resp := do(t, req); resp.StatusCode != http.StatusForbidden || resp.Header.Get("x-ms-error-code") != "CorsPreflightFailure" {
			t.Fatalf("preflight from another origin: %d %v", resp.StatusCode, resp.Header)
		}
		// An actual (signed) request from the allowed origin carries the CORS headers.
		get := signedRequest(t, e, http.MethodGet, "/Tables", "")
		get.Header.Set("Origin", "https://app.example")
		resp = do(t, get)
		if resp.StatusCode != http.StatusOK || resp.Header.Get("Access-Control-Allow-Origin") != "https://app.example" ||
			!strings.Contains(resp.Header.Get("Access-Control-Expose-Headers"), "x-ms-request-id") {
			t.Fatalf("actual request: %d %v", resp.StatusCode, resp.Header)
		}
	})
	t.Run("ErrXMLInvalid", func(t *testing.T) {
		bad := &aztables.CorsRule{AllowedOrigins: to.Ptr("*"), AllowedMethods: to.Ptr("FETCH"), AllowedHeaders: to.Ptr(""), ExposedHeaders: to.Ptr(""), MaxAgeInSeconds: to.Ptr[int32](1)}
		_, err := e.svc.SetProperties(ctx, aztables.ServiceProperties{Cors: []*aztables.CorsRule{bad}}, nil)
		wantCode(t, err, http.StatusBadRequest, "InvalidXmlDocument")
	})
}

// TestSDK_Statistics: Get Table Service Stats answers on the secondary location, as the
// Go SDK's own test reads it, and is refused on the primary, as Azure serves it only
// there.
func TestSDK_Statistics(t *testing.T) {
	e := newEnv(t)
	sec, err := aztables.NewServiceClientWithSharedKey(e.url+"-secondary", e.cred, clientOptions())
	if err != nil {
		t.Fatal(err)
	}
	got, err := sec.GetStatistics(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got.GeoReplication == nil || *got.GeoReplication.Status != aztables.GeoReplicationStatusLive || got.GeoReplication.LastSyncTime == nil {
		t.Fatalf("got %+v", got.GeoReplication)
	}
	_, err = e.svc.GetStatistics(ctx, nil)
	wantCode(t, err, http.StatusBadRequest, "InvalidQueryParameterValue")
}
