//go:build !js

package auth

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"
	"github.com/tabletopdb/tabletop/worker/rest/nethttp"
)

// recorder is a server that verifies every request it gets and answers each with an
// error (the SDK's answer parsing is not under test).
type recorder struct {
	mu      sync.Mutex
	results map[string]error // "METHOD path?query" → Verify's error
	verify  func(r *http.Request) error
}

func newRecorder(t *testing.T, verify func(r *http.Request) error) (*recorder, string) {
	rec := &recorder{results: map[string]error{}, verify: verify}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		err := rec.verify(r)
		rec.mu.Lock()
		rec.results[r.Method+" "+r.RequestURI] = err
		rec.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("x-ms-error-code", "InvalidInput")
		w.WriteHeader(http.StatusBadRequest)
		_, _ = w.Write([]byte(`{"odata.error":{"code":"InvalidInput","message":{"lang":"en-US","value":"test"}}}`))
	}))
	t.Cleanup(srv.Close)
	return rec, srv.URL + "/" + DevAccountName
}

var noRetry = azcore.ClientOptions{Retry: policy.RetryOptions{MaxRetries: -1}}

// exerciseSharedKey sends one request of most Table operations through the Go SDK.
func exerciseSharedKey(t *testing.T, base string, cred *aztables.SharedKeyCredential) {
	ctx := context.Background()
	svc, err := aztables.NewServiceClientWithSharedKey(base, cred, &aztables.ClientOptions{ClientOptions: noRetry})
	if err != nil {
		t.Fatal(err)
	}
	_, _ = svc.NewListTablesPager(nil).NextPage(ctx)
	_, _ = svc.CreateTable(ctx, "MyTable", nil)
	_, _ = svc.GetProperties(ctx, nil)
	_, _ = svc.SetProperties(ctx, aztables.ServiceProperties{}, nil)
	_, _ = svc.GetStatistics(ctx, nil)
	tc := svc.NewClient("MyTable")
	_, _ = tc.AddEntity(ctx, []byte(`{"PartitionKey":"a b","RowKey":"é'x"}`), nil)
	_, _ = tc.UpdateEntity(ctx, []byte(`{"PartitionKey":"a b","RowKey":"é'x"}`), nil)
	_, _ = tc.GetEntity(ctx, "a b", "é'x", nil)
	_, _ = tc.DeleteEntity(ctx, "a/b", "1", nil)
	_, _ = tc.SetAccessPolicy(ctx, &aztables.SetAccessPolicyOptions{TableACL: []*aztables.SignedIdentifier{{ID: to.Ptr("p1")}}})
	_, _ = tc.GetAccessPolicy(ctx, nil)
	_, _ = tc.NewListEntitiesPager(&aztables.ListEntitiesOptions{Filter: to.Ptr("PartitionKey eq 'a b'")}).NextPage(ctx)
	_, _ = tc.SubmitTransaction(ctx, []aztables.TransactionAction{{ActionType: aztables.TransactionTypeAdd, Entity: []byte(`{"PartitionKey":"p","RowKey":"1"}`)}}, nil)
}

// TestVerify_GoSDKSharedKeyLite sends requests through the official Go SDK, which signs
// with Shared Key Lite, and checks that every one verifies, and none with a wrong key.
func TestVerify_GoSDKSharedKeyLite(t *testing.T) {
	for _, tt := range []struct {
		name string
		key  string
		want error
	}{{"OK", DevAccountKey, nil}, {"OK/SecondaryKey", secondaryKey, nil}, {"ErrAuthenticationFailed", "d3Jvbmcta2V5", ErrAuthenticationFailed}} {
		t.Run(tt.name, func(t *testing.T) {
			rec, base := newRecorder(t, func(r *http.Request) error {
				p, err := Verify(Request{HTTP: nethttp.Request(r), Account: testAccount(t), Now: time.Now()})
				if err == nil && p.Kind != SharedKeyLite {
					return errors.New("not Shared Key Lite")
				}
				return err
			})
			exerciseSharedKey(t, base, devCred(t, tt.key))
			if len(rec.results) < 12 {
				t.Fatalf("server saw %d requests, want at least 12", len(rec.results))
			}
			for req, err := range rec.results {
				if !errors.Is(err, tt.want) || (tt.want == nil && err != nil) {
					t.Errorf("%s: err = %v, want %v", req, err, tt.want)
				}
			}
		})
	}
}

// TestVerify_GoSDKSAS uses the SAS URLs the Go SDK makes for a table and for the account
// with clients that send no other credentials.
func TestVerify_GoSDKSAS(t *testing.T) {
	ctx := context.Background()
	type result struct {
		plain, secure error
		authz         error
	}
	var mu sync.Mutex
	var got []result
	rec, base := newRecorder(t, func(r *http.Request) error {
		req := Request{HTTP: nethttp.Request(r), Account: testAccount(t), Now: time.Now()}
		_, plain := Verify(req)
		req.Secure = true
		p, secure := Verify(req)
		res := result{plain: plain, secure: secure}
		if secure == nil {
			res.authz = p.Authorize(For(QueryEntities, "MyTable"))
		}
		mu.Lock()
		got = append(got, res)
		mu.Unlock()
		return secure
	})
	cred := devCred(t, DevAccountKey)
	svc, err := aztables.NewServiceClientWithSharedKey(base, cred, &aztables.ClientOptions{ClientOptions: noRetry})
	if err != nil {
		t.Fatal(err)
	}
	tableURL, err := svc.NewClient("MyTable").GetTableSASURL(aztables.SASPermissions{Read: true, Add: true}, time.Now().Add(-time.Minute), time.Now().Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	accountURL, err := svc.GetAccountSASURL(aztables.AccountSASResourceTypes{Object: true, Container: true}, aztables.AccountSASPermissions{Read: true, List: true}, time.Now().Add(-time.Minute), time.Now().Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	tc, err := aztables.NewClientWithNoCredential(tableURL, &aztables.ClientOptions{ClientOptions: noRetry})
	if err != nil {
		t.Fatal(err)
	}
	_, _ = tc.NewListEntitiesPager(nil).NextPage(ctx)
	_, _ = tc.AddEntity(ctx, []byte(`{"PartitionKey":"p","RowKey":"r"}`), nil)
	asvc, err := aztables.NewServiceClientWithNoCredential(accountURL, &aztables.ClientOptions{ClientOptions: noRetry})
	if err != nil {
		t.Fatal(err)
	}
	_, _ = asvc.NewClient("MyTable").NewListEntitiesPager(nil).NextPage(ctx)
	if len(rec.results) != 3 || len(got) != 3 {
		t.Fatalf("server saw %d requests, want 3", len(got))
	}
	for i, r := range got {
		if r.secure != nil || r.authz != nil {
			t.Errorf("request %d: secure Verify = %v, Authorize = %v", i, r.secure, r.authz)
		}
	}
	// The SDK's table SAS allows http; its account SAS is https-only (spr=https).
	if got[0].plain != nil || !errors.Is(got[2].plain, ErrProtocolMismatch) {
		t.Errorf("plain http: table SAS err = %v, account SAS err = %v", got[0].plain, got[2].plain)
	}
}
