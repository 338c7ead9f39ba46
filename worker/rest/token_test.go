//go:build !js

package rest_test

import (
	"context"
	"crypto/tls"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/worker/native/http1"
	"github.com/tabletopdb/tabletop/worker/native/tlstest"
	"github.com/tabletopdb/tabletop/worker/rest"
	"github.com/tabletopdb/tabletop/worker/rest/auth"
	"github.com/tabletopdb/tabletop/worker/rest/auth/entra"
)

// tokenService serves a store over HTTPS with bearer tokens accepted (entra.Tokens, the
// native server's -oauth) and returns a Go SDK service client whose credential is cred.
func tokenService(t *testing.T, cred azcore.TokenCredential) *aztables.ServiceClient {
	t.Helper()
	st, err := core.Open(core.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	h, err := rest.New(rest.Options{Accounts: []*rest.Account{{Account: auth.DevAccount(), Store: st}}, Tokens: entra.Tokens{}})
	if err != nil {
		t.Fatal(err)
	}
	cert := tlstest.NewCertificate(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &http1.Server{Handler: h}
	go s.Serve(tls.NewListener(ln, cert.ServerConfig(t)))
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		s.Shutdown(ctx)
	})
	transport := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: cert.Pool}}}
	svc, err := aztables.NewServiceClient("https://"+ln.Addr().String()+"/"+auth.DevAccountName, cred,
		&aztables.ClientOptions{ClientOptions: policy.ClientOptions{Transport: transport, Retry: policy.RetryOptions{MaxRetries: -1}}})
	if err != nil {
		t.Fatal(err)
	}
	return svc
}

// TestSDK_TokenCredential: the Go SDK with a token credential does over HTTPS what it does
// with the account key: tables, every entity write, queries, a batch, and a token for
// another account's Table service is refused.
func TestSDK_TokenCredential(t *testing.T) {
	svc := tokenService(t, tlstest.EntraToken{})
	if _, err := svc.CreateTable(ctx, "Tokens", nil); err != nil {
		t.Fatal(err)
	}
	c := svc.NewClient("Tokens")
	if _, err := c.AddEntity(ctx, []byte(`{"PartitionKey":"p","RowKey":"1","V":1}`), nil); err != nil {
		t.Fatal(err)
	}
	if _, err := c.UpsertEntity(ctx, []byte(`{"PartitionKey":"p","RowKey":"2","V":2}`), &aztables.UpsertEntityOptions{UpdateMode: aztables.UpdateModeMerge}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.UpdateEntity(ctx, []byte(`{"PartitionKey":"p","RowKey":"1","V":10}`), &aztables.UpdateEntityOptions{UpdateMode: aztables.UpdateModeReplace}); err != nil {
		t.Fatal(err)
	}
	ops := []aztables.TransactionAction{{ActionType: aztables.TransactionTypeAdd, Entity: []byte(`{"PartitionKey":"p","RowKey":"3","V":3}`)}}
	if _, err := c.SubmitTransaction(ctx, ops, nil); err != nil {
		t.Fatal(err)
	}
	page, err := c.NewListEntitiesPager(&aztables.ListEntitiesOptions{Filter: to.Ptr("V gt 2")}).NextPage(ctx)
	if err != nil || len(page.Entities) != 2 {
		t.Fatalf("query: %d entities, err %v", len(page.Entities), err)
	}
	if _, err := c.DeleteEntity(ctx, "p", "2", nil); err != nil {
		t.Fatal(err)
	}
	tables, err := svc.NewListTablesPager(nil).NextPage(ctx)
	if err != nil || len(tables.Tables) != 1 {
		t.Fatalf("list tables: %+v, %v", tables.Tables, err)
	}
	if _, err := svc.DeleteTable(ctx, "Tokens", nil); err != nil {
		t.Fatal(err)
	}
	t.Run("ErrOtherAccount", func(t *testing.T) {
		other := tokenService(t, tlstest.EntraToken{Audience: "https://someoneelse.table.core.windows.net"})
		_, err := other.CreateTable(ctx, "Tokens", nil)
		wantCode(t, err, http.StatusForbidden, "AuthenticationFailed")
	})
}
