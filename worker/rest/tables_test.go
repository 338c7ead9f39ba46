//go:build !js

package rest_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"
)

func TestSDK_CreateTable(t *testing.T) {
	e := newEnv(t)
	t.Run("OK", func(t *testing.T) {
		resp, err := e.svc.CreateTable(ctx, "People", nil)
		if err != nil {
			t.Fatal(err)
		}
		if resp.TableName == nil || *resp.TableName != "People" {
			t.Fatalf("TableName = %v", resp.TableName)
		}
	})
	t.Run("ErrTableExists", func(t *testing.T) {
		_, err := e.svc.CreateTable(ctx, "people", nil)
		wantCode(t, err, http.StatusConflict, "TableAlreadyExists")
	})
	t.Run("ErrTableNameInvalid", func(t *testing.T) {
		_, err := e.svc.CreateTable(ctx, "1abc", nil)
		wantCode(t, err, http.StatusBadRequest, "InvalidResourceName")
	})
	t.Run("ErrTableNameReserved", func(t *testing.T) {
		_, err := e.svc.CreateTable(ctx, "Tables", nil)
		wantCode(t, err, http.StatusBadRequest, "InvalidResourceName")
	})
}

func TestSDK_DeleteTable(t *testing.T) {
	e := newEnv(t)
	e.table(t, "Gone")
	t.Run("OK", func(t *testing.T) {
		if _, err := e.svc.DeleteTable(ctx, "gone", nil); err != nil {
			t.Fatal(err)
		}
		if got := listTables(t, e, nil); len(got) != 0 {
			t.Fatalf("tables after delete = %v", got)
		}
	})
	t.Run("ErrTableNotFound", func(t *testing.T) {
		_, err := e.svc.DeleteTable(ctx, "Gone", nil)
		wantCode(t, err, http.StatusNotFound, "ResourceNotFound")
	})
}

func TestSDK_ListTables(t *testing.T) {
	e := newEnv(t)
	var want []string
	for i := 0; i < 25; i++ {
		name := fmt.Sprintf("tbl%03d", i)
		e.table(t, name)
		want = append(want, name)
	}
	t.Run("OK", func(t *testing.T) {
		if got := listTables(t, e, nil); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("tables = %v", got)
		}
	})
	t.Run("Filter", func(t *testing.T) {
		got := listTables(t, e, &aztables.ListTablesOptions{Filter: to.Ptr("TableName ge 'tbl010' and TableName lt 'tbl013'")})
		if fmt.Sprint(got) != "[tbl010 tbl011 tbl012]" {
			t.Fatalf("tables = %v", got)
		}
	})
	t.Run("Paging", func(t *testing.T) {
		pager := e.svc.NewListTablesPager(&aztables.ListTablesOptions{Top: to.Ptr[int32](10)})
		var pages []int
		var got []string
		for pager.More() {
			p, err := pager.NextPage(ctx)
			if err != nil {
				t.Fatal(err)
			}
			pages = append(pages, len(p.Tables))
			for _, tb := range p.Tables {
				got = append(got, *tb.Name)
			}
		}
		if fmt.Sprint(pages) != "[10 10 5]" || fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("pages = %v, tables = %v", pages, got)
		}
	})
	t.Run("ErrFilterSyntax", func(t *testing.T) {
		pager := e.svc.NewListTablesPager(&aztables.ListTablesOptions{Filter: to.Ptr("TableName eq")})
		_, err := pager.NextPage(ctx)
		wantCode(t, err, http.StatusBadRequest, "InvalidInput")
	})
}

// listTables lists every table name with the SDK's pager.
func listTables(t *testing.T, e *env, opts *aztables.ListTablesOptions) []string {
	t.Helper()
	var names []string
	pager := e.svc.NewListTablesPager(opts)
	for pager.More() {
		p, err := pager.NextPage(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, tb := range p.Tables {
			names = append(names, *tb.Name)
		}
	}
	return names
}
