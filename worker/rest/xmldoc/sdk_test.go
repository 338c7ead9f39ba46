//go:build !js

package xmldoc

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"

	"github.com/tabletopdb/tabletop/core"
)

const devKey = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="

// fakeService is a server that keeps the bodies of PUT requests and answers GETs with
// documents written by this package.
type fakeService struct {
	mu     sync.Mutex
	bodies map[string][]byte // "PUT comp" → body
	acl    []core.AccessPolicy
	props  *Properties
	sync   time.Time
}

func (f *fakeService) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	comp := r.URL.Query().Get("comp")
	w.Header().Set("Date", time.Now().UTC().Format(http.TimeFormat))
	if r.Method == http.MethodPut {
		body, _ := io.ReadAll(r.Body)
		f.bodies[comp] = body
		w.WriteHeader(map[string]int{"acl": http.StatusNoContent, "properties": http.StatusAccepted}[comp])
		return
	}
	w.Header().Set("Content-Type", "application/xml")
	switch comp {
	case "acl":
		_ = WriteACL(w, f.acl)
	case "properties":
		_ = WriteProperties(w, f.props)
	case "stats":
		_ = WriteStats(w, f.sync)
	}
}

func newFake(t *testing.T) (*fakeService, *aztables.ServiceClient) {
	f := &fakeService{bodies: map[string][]byte{}}
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	cred, err := aztables.NewSharedKeyCredential("devstoreaccount1", devKey)
	if err != nil {
		t.Fatal(err)
	}
	opts := &aztables.ClientOptions{ClientOptions: azcore.ClientOptions{Retry: policy.RetryOptions{MaxRetries: -1}}}
	svc, err := aztables.NewServiceClientWithSharedKey(srv.URL+"/devstoreaccount1", cred, opts)
	if err != nil {
		t.Fatal(err)
	}
	return f, svc
}

// TestGoSDK_AccessPolicy sends an ACL through the Go SDK, parses what it sent, and has
// the SDK read back what WriteACL writes.
func TestGoSDK_AccessPolicy(t *testing.T) {
	f, svc := newFake(t)
	ctx := context.Background()
	tc := svc.NewClient("t")
	start, expiry := time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC), time.Date(2025, 1, 2, 3, 4, 5, 600_000_000, time.UTC)
	sent := []*aztables.SignedIdentifier{
		{ID: to.Ptr("full"), AccessPolicy: &aztables.AccessPolicy{Start: &start, Expiry: &expiry, Permission: to.Ptr("raud")}},
		{ID: to.Ptr("partial"), AccessPolicy: &aztables.AccessPolicy{Permission: to.Ptr("r")}},
		{ID: to.Ptr("empty")},
	}
	if _, err := tc.SetAccessPolicy(ctx, &aztables.SetAccessPolicyOptions{TableACL: sent}); err != nil {
		t.Fatal(err)
	}
	got, err := ParseACL(bytes.NewReader(f.bodies["acl"]))
	if err != nil {
		t.Fatal(err)
	}
	want := []core.AccessPolicy{
		{ID: "full", Start: "2024-01-02T03:04:05.0000000Z", Expiry: "2025-01-02T03:04:05.6000000Z", Permission: "raud"},
		{ID: "partial", Permission: "r"},
		{ID: "empty"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("ParseACL = %+v, want %+v", got, want)
	}
	f.acl = got
	resp, err := tc.GetAccessPolicy(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.SignedIdentifiers) != 3 {
		t.Fatalf("SDK read %d identifiers", len(resp.SignedIdentifiers))
	}
	full := resp.SignedIdentifiers[0]
	if *full.ID != "full" || !full.AccessPolicy.Start.Equal(start) || !full.AccessPolicy.Expiry.Equal(expiry) || *full.AccessPolicy.Permission != "raud" {
		t.Errorf("SDK read %+v", full.AccessPolicy)
	}
	if p := resp.SignedIdentifiers[1].AccessPolicy; *p.Permission != "r" || p.Start != nil || p.Expiry != nil {
		t.Errorf("SDK read partial %+v", p)
	}
	// Clearing the ACL sends no body.
	if _, err := tc.SetAccessPolicy(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if got, err := ParseACL(bytes.NewReader(f.bodies["acl"])); err != nil || len(got) != 0 {
		t.Fatalf("ParseACL(clear) = %v, %v", got, err)
	}
}

// TestGoSDK_Properties sends service properties through the Go SDK, parses and merges
// them, and has the SDK read back what WriteProperties writes.
func TestGoSDK_Properties(t *testing.T) {
	f, svc := newFake(t)
	ctx := context.Background()
	_, err := svc.SetProperties(ctx, aztables.ServiceProperties{
		HourMetrics: &aztables.Metrics{Enabled: to.Ptr(true), IncludeAPIs: to.Ptr(true), Version: to.Ptr("1.0"),
			RetentionPolicy: &aztables.RetentionPolicy{Enabled: to.Ptr(true), Days: to.Ptr(int32(5))}},
		Cors: []*aztables.CorsRule{{AllowedHeaders: to.Ptr("x-ms-meta-data*"), AllowedMethods: to.Ptr("PUT,GET"),
			AllowedOrigins: to.Ptr("www.xyz.com"), ExposedHeaders: to.Ptr("x-ms-meta-source*"), MaxAgeInSeconds: to.Ptr(int32(500))}},
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	parsed, err := ParseProperties(bytes.NewReader(f.bodies["properties"]))
	if err != nil {
		t.Fatal(err)
	}
	if parsed.Logging != nil || parsed.MinuteMetrics != nil || parsed.HourMetrics == nil || len(parsed.Cors) != 1 {
		t.Fatalf("ParseProperties = %+v", parsed)
	}
	f.props = Merge(DefaultProperties(), parsed)
	got, err := svc.GetProperties(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if *got.Logging.Version != "1.0" || *got.Logging.Read || *got.MinuteMetrics.Enabled || got.MinuteMetrics.IncludeAPIs != nil {
		t.Errorf("defaults read back as %+v, %+v", got.Logging, got.MinuteMetrics)
	}
	if hm := got.HourMetrics; !*hm.Enabled || !*hm.IncludeAPIs || *hm.RetentionPolicy.Days != 5 {
		t.Errorf("HourMetrics read back as %+v", hm)
	}
	if c := got.Cors[0]; *c.AllowedMethods != "PUT,GET" || *c.AllowedOrigins != "www.xyz.com" || *c.MaxAgeInSeconds != 500 ||
		*c.AllowedHeaders != "x-ms-meta-data*" || *c.ExposedHeaders != "x-ms-meta-source*" {
		t.Errorf("Cors read back as %+v", c)
	}
}

func TestGoSDK_Statistics(t *testing.T) {
	f, svc := newFake(t)
	f.sync = time.Date(2024, 6, 1, 12, 0, 0, 0, time.UTC)
	got, err := svc.GetStatistics(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if *got.GeoReplication.Status != aztables.GeoReplicationStatusLive || !got.GeoReplication.LastSyncTime.Equal(f.sync) {
		t.Fatalf("SDK read %+v", got.GeoReplication)
	}
}
