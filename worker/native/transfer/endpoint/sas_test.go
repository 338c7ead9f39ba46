package endpoint_test

import (
	"errors"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"
	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/worker/native/transfer/endpoint"
	"github.com/tabletopdb/tabletop/worker/native/transfer/transfertest"
	"github.com/tabletopdb/tabletop/worker/rest/auth"
)

// sasURL returns the service URL of srv with an account SAS, signed by the official SDK,
// granting permissions.
func sasURL(t *testing.T, srv *transfertest.Server, permissions string) string {
	t.Helper()
	cred, err := aztables.NewSharedKeyCredential(auth.DevAccountName, auth.DevAccountKey)
	if err != nil {
		t.Fatal(err)
	}
	qps, err := aztables.AccountSASSignatureValues{Protocol: aztables.SASProtocolHTTPSandHTTP, Permissions: permissions,
		Services: "t", ResourceTypes: "sco", ExpiryTime: time.Now().Add(time.Hour).UTC()}.Sign(cred)
	if err != nil {
		t.Fatal(err)
	}
	return srv.URL + "?" + qps.Encode()
}

func TestParse_sas(t *testing.T) {
	srv := transfertest.NewServer(t)
	t.Run("OK", func(t *testing.T) {
		c, err := endpoint.Parse(sasURL(t, srv, "rwdlacu"))
		if err != nil {
			t.Fatal(err)
		}
		if err := c.CreateTable(ctx, "sas"); err != nil {
			t.Fatal(err)
		}
		want := transfertest.EdgeEntities()
		for _, e := range want {
			if err := c.Upsert(ctx, "sas", []*model.Entity{e}); err != nil {
				t.Fatal(err)
			}
		}
		var got []*model.Entity
		if err := c.Query(ctx, "sas", "", func(e *model.Entity) error { got = append(got, e); return nil }); err != nil {
			t.Fatal(err)
		}
		if d := transfertest.Diff(want, got, false); d != "" {
			t.Fatal(d)
		}
		if names, err := c.Tables(ctx); err != nil || len(names) != 1 {
			t.Fatalf("Tables = %v, %v", names, err)
		}
	})
	t.Run("ErrReadOnly", func(t *testing.T) {
		c, err := endpoint.Parse(sasURL(t, srv, "rl"))
		if err != nil {
			t.Fatal(err)
		}
		err = c.Upsert(ctx, "sas", []*model.Entity{{PartitionKey: "p", RowKey: "new"}})
		var e *endpoint.Error
		if !errors.As(err, &e) || e.Status != 403 {
			t.Fatalf("err = %v, want 403", err)
		}
	})
}
