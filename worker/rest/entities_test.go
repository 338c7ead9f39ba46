//go:build !js

package rest_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"
)

// props is an entity as the SDK's EDMEntity, for building bodies.
func props(pk, rk string, p map[string]any) []byte {
	b, err := json.Marshal(aztables.EDMEntity{Entity: aztables.Entity{PartitionKey: pk, RowKey: rk}, Properties: p})
	if err != nil {
		panic(err)
	}
	return b
}

// get reads an entity back into an EDMEntity.
func get(t *testing.T, c *aztables.Client, pk, rk string) (aztables.EDMEntity, azcore.ETag) {
	t.Helper()
	resp, err := c.GetEntity(ctx, pk, rk, nil)
	if err != nil {
		t.Fatalf("get %s/%s: %v", pk, rk, err)
	}
	var e aztables.EDMEntity
	if err := json.Unmarshal(resp.Value, &e); err != nil {
		t.Fatal(err)
	}
	if string(resp.ETag) != e.ETag {
		t.Fatalf("ETag header %s, odata.etag %s", resp.ETag, e.ETag)
	}
	return e, resp.ETag
}

func TestSDK_AddEntity(t *testing.T) {
	e := newEnv(t)
	c := e.table(t, "Items")
	t.Run("OK", func(t *testing.T) {
		resp, err := c.AddEntity(ctx, props("p", "r1", map[string]any{"Name": "one"}), nil)
		if err != nil {
			t.Fatal(err)
		}
		got, etag := get(t, c, "p", "r1")
		if got.Properties["Name"] != "one" || etag != resp.ETag {
			t.Fatalf("got %+v etag %s, add etag %s", got, etag, resp.ETag)
		}
	})
	t.Run("ErrEntityExists", func(t *testing.T) {
		_, err := c.AddEntity(ctx, props("p", "r1", nil), nil)
		wantCode(t, err, http.StatusConflict, "EntityAlreadyExists")
	})
	t.Run("ErrTableNotFound", func(t *testing.T) {
		_, err := e.svc.NewClient("Missing").AddEntity(ctx, props("p", "r1", nil), nil)
		wantCode(t, err, http.StatusNotFound, "TableNotFound")
	})
	t.Run("ErrKeyInvalid", func(t *testing.T) {
		_, err := c.AddEntity(ctx, props("a/b", "r", nil), nil)
		wantCode(t, err, http.StatusBadRequest, "OutOfRangeInput")
	})
	t.Run("ErrPropertyNameInvalid", func(t *testing.T) {
		_, err := c.AddEntity(ctx, props("p", "r2", map[string]any{"bad-name": 1}), nil)
		wantCode(t, err, http.StatusBadRequest, "PropertyNameInvalid")
	})
}

func TestSDK_GetEntity(t *testing.T) {
	e := newEnv(t)
	c := e.table(t, "Items")
	if _, err := c.AddEntity(ctx, props("p", "it is é", map[string]any{"A": "a", "B": int32(2)}), nil); err != nil {
		t.Fatal(err)
	}
	t.Run("OK", func(t *testing.T) {
		got, _ := get(t, c, "p", "it is é")
		if got.RowKey != "it is é" || got.Properties["A"] != "a" || got.Properties["B"] != int32(2) {
			t.Fatalf("got %+v", got)
		}
	})
	t.Run("ErrEntityNotFound", func(t *testing.T) {
		_, err := c.GetEntity(ctx, "p", "nope", nil)
		wantCode(t, err, http.StatusNotFound, "ResourceNotFound")
	})
}

func TestSDK_UpdateEntity(t *testing.T) {
	e := newEnv(t)
	c := e.table(t, "Items")
	add, err := c.AddEntity(ctx, props("p", "r", map[string]any{"A": "a", "B": "b"}), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Run("ErrPreconditionFailed", func(t *testing.T) {
		stale := azcore.ETag(`W/"datetime'2001-01-01T00%3A00%3A00.0000000Z'"`)
		_, err := c.UpdateEntity(ctx, props("p", "r", map[string]any{"A": "x"}), &aztables.UpdateEntityOptions{IfMatch: &stale, UpdateMode: aztables.UpdateModeReplace})
		wantCode(t, err, http.StatusPreconditionFailed, "UpdateConditionNotSatisfied")
	})
	var etag azcore.ETag
	t.Run("ReplaceWithETag", func(t *testing.T) {
		resp, err := c.UpdateEntity(ctx, props("p", "r", map[string]any{"A": "x"}), &aztables.UpdateEntityOptions{IfMatch: &add.ETag, UpdateMode: aztables.UpdateModeReplace})
		if err != nil {
			t.Fatal(err)
		}
		got, _ := get(t, c, "p", "r")
		if got.Properties["A"] != "x" || got.Properties["B"] != nil || resp.ETag == add.ETag {
			t.Fatalf("got %+v, etag %s", got, resp.ETag)
		}
		etag = resp.ETag
	})
	t.Run("ErrStaleETag", func(t *testing.T) {
		_, err := c.UpdateEntity(ctx, props("p", "r", map[string]any{"A": "y"}), &aztables.UpdateEntityOptions{IfMatch: &add.ETag, UpdateMode: aztables.UpdateModeMerge})
		wantCode(t, err, http.StatusPreconditionFailed, "UpdateConditionNotSatisfied")
	})
	t.Run("MergeWithETag", func(t *testing.T) {
		_, err := c.UpdateEntity(ctx, props("p", "r", map[string]any{"C": "c"}), &aztables.UpdateEntityOptions{IfMatch: &etag, UpdateMode: aztables.UpdateModeMerge})
		if err != nil {
			t.Fatal(err)
		}
		got, _ := get(t, c, "p", "r")
		if got.Properties["A"] != "x" || got.Properties["C"] != "c" {
			t.Fatalf("got %+v", got)
		}
	})
	t.Run("MergeAnyETag", func(t *testing.T) {
		if _, err := c.UpdateEntity(ctx, props("p", "r", map[string]any{"D": true}), &aztables.UpdateEntityOptions{UpdateMode: aztables.UpdateModeMerge}); err != nil {
			t.Fatal(err)
		}
		if got, _ := get(t, c, "p", "r"); got.Properties["D"] != true || got.Properties["C"] != "c" {
			t.Fatalf("got %+v", got)
		}
	})
	t.Run("ErrEntityNotFound", func(t *testing.T) {
		_, err := c.UpdateEntity(ctx, props("p", "missing", nil), &aztables.UpdateEntityOptions{UpdateMode: aztables.UpdateModeMerge})
		wantCode(t, err, http.StatusNotFound, "ResourceNotFound")
		_, err = c.UpdateEntity(ctx, props("p", "missing", nil), &aztables.UpdateEntityOptions{UpdateMode: aztables.UpdateModeReplace})
		wantCode(t, err, http.StatusNotFound, "ResourceNotFound")
	})
}

func TestSDK_UpsertEntity(t *testing.T) {
	e := newEnv(t)
	c := e.table(t, "Items")
	for _, mode := range []aztables.UpdateMode{aztables.UpdateModeReplace, aztables.UpdateModeMerge} {
		t.Run(string(mode), func(t *testing.T) {
			rk := "r" + string(mode)
			opts := &aztables.UpsertEntityOptions{UpdateMode: mode}
			if _, err := c.UpsertEntity(ctx, props("p", rk, map[string]any{"A": "a"}), opts); err != nil {
				t.Fatal(err)
			}
			if _, err := c.UpsertEntity(ctx, props("p", rk, map[string]any{"B": "b"}), opts); err != nil {
				t.Fatal(err)
			}
			got, _ := get(t, c, "p", rk)
			wantA := map[aztables.UpdateMode]any{aztables.UpdateModeReplace: nil, aztables.UpdateModeMerge: "a"}[mode]
			if got.Properties["A"] != wantA || got.Properties["B"] != "b" {
				t.Fatalf("got %+v", got.Properties)
			}
		})
	}
}

func TestSDK_DeleteEntity(t *testing.T) {
	e := newEnv(t)
	c := e.table(t, "Items")
	add, err := c.AddEntity(ctx, props("p", "r1", nil), nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.AddEntity(ctx, props("p", "r2", nil), nil); err != nil {
		t.Fatal(err)
	}
	t.Run("ErrPreconditionFailed", func(t *testing.T) {
		stale := azcore.ETag(`W/"datetime'2001-01-01T00%3A00%3A00.0000000Z'"`)
		_, err := c.DeleteEntity(ctx, "p", "r1", &aztables.DeleteEntityOptions{IfMatch: &stale})
		wantCode(t, err, http.StatusPreconditionFailed, "UpdateConditionNotSatisfied")
	})
	t.Run("WithETag", func(t *testing.T) {
		if _, err := c.DeleteEntity(ctx, "p", "r1", &aztables.DeleteEntityOptions{IfMatch: &add.ETag}); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("WithoutETag", func(t *testing.T) {
		if _, err := c.DeleteEntity(ctx, "p", "r2", nil); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("ErrEntityNotFound", func(t *testing.T) {
		_, err := c.DeleteEntity(ctx, "p", "r2", nil)
		wantCode(t, err, http.StatusNotFound, "ResourceNotFound")
	})
	t.Run("ErrETagInvalid", func(t *testing.T) {
		bad := azcore.ETag("nonsense")
		_, err := c.DeleteEntity(ctx, "p", "r2", &aztables.DeleteEntityOptions{IfMatch: &bad})
		wantCode(t, err, http.StatusBadRequest, "InvalidInput")
	})
}
