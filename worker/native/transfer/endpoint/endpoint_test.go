package endpoint_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/tabletopdb/tabletop/core/azerr"
	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/worker/native/transfer/endpoint"
	"github.com/tabletopdb/tabletop/worker/native/transfer/transfertest"
)

var ctx = context.Background()

func TestClient_Upsert(t *testing.T) {
	srv := transfertest.NewServer(t)
	c, err := endpoint.Parse(srv.ConnectionString)
	if err != nil {
		t.Fatal(err)
	}
	t.Run("OK", func(t *testing.T) {
		want := transfertest.EdgeEntities()
		if err := c.CreateTable(ctx, "edge"); err != nil {
			t.Fatal(err)
		}
		if err := c.CreateTable(ctx, "edge"); err != nil {
			t.Fatalf("second CreateTable: %v", err)
		}
		for _, e := range want { // one partition per batch
			if err := c.Upsert(ctx, "edge", []*model.Entity{e}); err != nil {
				t.Fatal(err)
			}
		}
		var got []*model.Entity
		if err := c.Query(ctx, "edge", "", func(e *model.Entity) error { got = append(got, e); return nil }); err != nil {
			t.Fatal(err)
		}
		if d := transfertest.Diff(want, got, false); d != "" {
			t.Fatal(d)
		}
		if got[0].Timestamp == 0 {
			t.Fatal("no Timestamp read")
		}
	})
	t.Run("OK/Paging", func(t *testing.T) {
		if err := c.CreateTable(ctx, "many"); err != nil {
			t.Fatal(err)
		}
		var want []*model.Entity
		for i := range 2500 {
			want = append(want, &model.Entity{PartitionKey: "p", RowKey: fmt.Sprintf("%05d", i)})
		}
		for i := 0; i < len(want); i += endpoint.MaxBatch {
			if err := c.Upsert(ctx, "many", want[i:i+endpoint.MaxBatch]); err != nil {
				t.Fatal(err)
			}
		}
		n := 0
		if err := c.Query(ctx, "many", "RowKey ge '01000'", func(e *model.Entity) error { n++; return nil }); err != nil {
			t.Fatal(err)
		}
		if n != 1500 {
			t.Fatalf("%d entities, want 1500", n)
		}
		names, err := c.Tables(ctx)
		if err != nil || !slices.Equal(names, []string{"edge", "many"}) {
			t.Fatalf("Tables = %v, %v", names, err)
		}
	})
	t.Run("ErrBatch", func(t *testing.T) {
		bad := []*model.Entity{
			{PartitionKey: "p", RowKey: "a"},
			{PartitionKey: "p", RowKey: "b", Properties: []model.Property{{Name: "1bad", Value: model.StringValue("x")}}},
		}
		err := c.Upsert(ctx, "edge", bad)
		var be *endpoint.BatchError
		if !errors.As(err, &be) || be.Index != 1 || be.Err.Code != azerr.PropertyNameInvalid.Name {
			t.Fatalf("err = %#v", err)
		}
	})
	t.Run("ErrTableNotFound", func(t *testing.T) {
		err := c.Query(ctx, "nosuch", "", func(*model.Entity) error { return nil })
		var e *endpoint.Error
		if !errors.As(err, &e) || e.Code != azerr.TableNotFound.Name {
			t.Fatalf("err = %v", err)
		}
	})
}

func TestParse(t *testing.T) {
	for _, tc := range []struct{ in, account, url string }{
		{"UseDevelopmentStorage=true", "devstoreaccount1", "http://127.0.0.1:10002/devstoreaccount1"},
		{"DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=a2V5;EndpointSuffix=core.windows.net", "acct", "https://acct.table.core.windows.net"},
		{"https://acct.table.core.windows.net/?sv=2019-02-02&sig=x", "acct", "https://acct.table.core.windows.net"},
		{"http://127.0.0.1:8787/devstoreaccount1?sv=2019-02-02&sig=x", "devstoreaccount1", "http://127.0.0.1:8787/devstoreaccount1"},
	} {
		t.Run("OK/"+tc.account, func(t *testing.T) {
			c, err := endpoint.Parse(tc.in)
			if err != nil || c.Account() != tc.account || c.String() != tc.url {
				t.Fatalf("Parse(%q) = %v %v, %v", tc.in, c.Account(), c, err)
			}
		})
	}
	for _, in := range []string{"AccountName=a;AccountKey=!!", "http://host/acct", "nothing"} {
		t.Run("ErrEndpoint", func(t *testing.T) {
			if _, err := endpoint.Parse(in); !errors.Is(err, endpoint.ErrEndpoint) {
				t.Fatalf("Parse(%q) err = %v", in, err)
			}
		})
	}
}
