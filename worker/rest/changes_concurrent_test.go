//go:build !js

package rest_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"
)

// TestChanges_PagingWhileWriting pages through the feed over HTTP, in small pages and
// with a key filter (so pages also step over changes that do not match), while SDK
// clients upsert and delete. A replica applying every page must end equal to what the
// filter selects from the table.
func TestChanges_PagingWhileWriting(t *testing.T) {
	e := newSyncEnv(t)
	tc := e.table(t, "busy")
	var done atomic.Bool
	var wg sync.WaitGroup
	for w := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(w), 11))
			for range 400 {
				pk, rk := fmt.Sprintf("p%d", r.IntN(3)), fmt.Sprintf("r%02d", r.IntN(15))
				var err error
				if r.IntN(3) == 0 {
					_, err = tc.DeleteEntity(ctx, pk, rk, nil)
				} else {
					_, err = tc.UpsertEntity(ctx, props(pk, rk, map[string]any{"N": r.IntN(100)}), &aztables.UpsertEntityOptions{UpdateMode: aztables.UpdateModeReplace})
				}
				if err != nil && !isNotFound(err) {
					t.Error(err)
					return
				}
			}
		}()
	}
	go func() { wg.Wait(); done.Store(true) }()

	replica := map[string]string{}
	since := ""
	for pages := 0; ; pages++ {
		finished := done.Load()
		p := changes(t, e, "busy", url.Values{"since": {since}, "$top": {strconv.Itoa(1 + pages%5)}, "$filter": {"PartitionKey eq 'p1'"}})
		if p.status != http.StatusOK {
			t.Fatalf("page %d: %d %s", pages, p.status, p.code)
		}
		for _, v := range p.Value {
			replica[v["RowKey"].(string)] = v["odata.etag"].(string)
		}
		for _, d := range p.Deleted {
			delete(replica, d["RowKey"].(string))
		}
		since = p.checkpoint
		if finished && !p.more {
			break
		}
	}
	want := map[string]string{}
	pager := tc.NewListEntitiesPager(&aztables.ListEntitiesOptions{Filter: ptr("PartitionKey eq 'p1'")})
	for pager.More() {
		page, err := pager.NextPage(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, raw := range page.Entities {
			var ent aztables.EDMEntity
			if err := ent.UnmarshalJSON(raw); err != nil {
				t.Fatal(err)
			}
			want[ent.RowKey] = string(ent.ETag)
		}
	}
	if fmt.Sprint(replica) != fmt.Sprint(want) {
		t.Fatalf("replica %v\ntable   %v", replica, want)
	}
}

func ptr[T any](v T) *T { return &v }

// isNotFound reports whether err is the SDK's 404.
func isNotFound(err error) bool {
	var re *azcore.ResponseError
	return errors.As(err, &re) && re.StatusCode == http.StatusNotFound
}
