//go:build !js

package rest_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"
)

// seed inserts 2,500 entities in 5 partitions of 500, with batches of 100: entity i has
// PartitionKey p{i/500}, RowKey r{i%500:04}, Num i (Int32), Big i<<32 (Int64), Even and Name.
func seed(t testing.TB, c *aztables.Client) {
	t.Helper()
	for b := 0; b < 25; b++ {
		var actions []aztables.TransactionAction
		for i := b * 100; i < (b+1)*100; i++ {
			p := map[string]any{"Num": int32(i), "Big": aztables.EDMInt64(int64(i) << 32), "Even": i%2 == 0, "Name": fmt.Sprint("n", i)}
			actions = append(actions, aztables.TransactionAction{ActionType: aztables.TransactionTypeAdd,
				Entity: props(fmt.Sprint("p", i/500), fmt.Sprintf("r%04d", i%500), p)})
		}
		if _, err := c.SubmitTransaction(ctx, actions, nil); err != nil {
			t.Fatalf("batch %d: %v", b, err)
		}
	}
}

// listed is what a listing returned: page sizes and entities.
type listed struct {
	pages    []int
	entities []map[string]any
}

func list(t *testing.T, c *aztables.Client, opts *aztables.ListEntitiesOptions) listed {
	t.Helper()
	var out listed
	pager := c.NewListEntitiesPager(opts)
	for pager.More() {
		p, err := pager.NextPage(ctx)
		if err != nil {
			t.Fatal(err)
		}
		out.pages = append(out.pages, len(p.Entities))
		for _, raw := range p.Entities {
			var m map[string]any
			if err := json.Unmarshal(raw, &m); err != nil {
				t.Fatal(err)
			}
			out.entities = append(out.entities, m)
		}
	}
	return out
}

func TestSDK_ListEntities(t *testing.T) {
	e := newEnv(t)
	c := e.table(t, "Many")
	seed(t, c)
	t.Run("All", func(t *testing.T) {
		got := list(t, c, nil)
		if fmt.Sprint(got.pages) != "[1000 1000 500]" {
			t.Fatalf("pages = %v", got.pages)
		}
		for i, m := range got.entities {
			if m["Num"] != float64(i) {
				t.Fatalf("entity %d has Num %v: out of order", i, m["Num"])
			}
		}
	})
	t.Run("Top", func(t *testing.T) {
		got := list(t, c, &aztables.ListEntitiesOptions{Top: to.Ptr[int32](700)})
		if fmt.Sprint(got.pages) != "[700 700 700 400]" {
			t.Fatalf("pages = %v", got.pages)
		}
	})
	t.Run("FilterKeys", func(t *testing.T) {
		f := "PartitionKey eq 'p3' and RowKey ge 'r0100' and RowKey lt 'r0110'"
		got := list(t, c, &aztables.ListEntitiesOptions{Filter: &f})
		if len(got.entities) != 10 || got.entities[0]["Num"] != float64(1600) {
			t.Fatalf("got %d entities, first %v", len(got.entities), got.entities)
		}
	})
	t.Run("FilterTyped", func(t *testing.T) {
		f := "Num ge 2490 and Even eq true and Big gt 10690173599744L"
		got := list(t, c, &aztables.ListEntitiesOptions{Filter: &f})
		if len(got.entities) != 5 {
			t.Fatalf("got %d entities: %v", len(got.entities), got.entities)
		}
	})
	t.Run("FilterTypeMismatch", func(t *testing.T) {
		f := "Big eq '0'" // a string literal never matches an Int64 property
		if got := list(t, c, &aztables.ListEntitiesOptions{Filter: &f}); len(got.entities) != 0 {
			t.Fatalf("got %d entities", len(got.entities))
		}
	})
	t.Run("Select", func(t *testing.T) {
		f, s := "Num lt 3", "Name,Missing"
		got := list(t, c, &aztables.ListEntitiesOptions{Filter: &f, Select: &s})
		if len(got.entities) != 3 {
			t.Fatalf("got %v", got.entities)
		}
		m := got.entities[2]
		if m["Name"] != "n2" || m["PartitionKey"] != nil || m["Num"] != nil || m["odata.etag"] == nil {
			t.Fatalf("selected entity = %v", m)
		}
		if v, ok := m["Missing"]; !ok || v != nil {
			t.Fatalf("Missing = %v, %v; want null", v, ok)
		}
	})
	t.Run("ErrFilterSyntax", func(t *testing.T) {
		f := "Num gt"
		_, err := c.NewListEntitiesPager(&aztables.ListEntitiesOptions{Filter: &f}).NextPage(ctx)
		wantCode(t, err, http.StatusBadRequest, "InvalidInput")
		if !strings.Contains(err.Error(), "position 6") {
			t.Fatalf("the message does not say where the filter is wrong:\n%v", err)
		}
	})
	t.Run("ErrTopInvalid", func(t *testing.T) {
		_, err := c.NewListEntitiesPager(&aztables.ListEntitiesOptions{Top: to.Ptr[int32](1001)}).NextPage(ctx)
		wantCode(t, err, http.StatusBadRequest, "InvalidQueryParameterValue")
	})
	t.Run("ErrTableNotFound", func(t *testing.T) {
		_, err := e.svc.NewClient("Nope").NewListEntitiesPager(nil).NextPage(ctx)
		wantCode(t, err, http.StatusNotFound, "TableNotFound")
	})
}
