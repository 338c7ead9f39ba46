//go:build linux

package native

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/runtime"
	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/core/query"
	"github.com/tabletopdb/tabletop/core/wire"
	"github.com/tabletopdb/tabletop/worker/rest"
	"github.com/tabletopdb/tabletop/worker/rest/auth"
)

// TestIndex_CrashRecovery runs a server child process with -index Items.Price on a data
// directory, kills it with SIGKILL three times while writers insert, replace, merge,
// upsert, delete and batch entities with Price values of every numeric type and strings,
// and restarts it. After each restart the index answers exactly what a full scan with the
// same filter answers, and the store's indexes agree with its entities entry by entry.
func TestIndex_CrashRecovery(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the server program four times")
	}
	dir := t.TempDir()
	args := "-data " + dir + " -index Items.Price"
	for round := range 4 {
		addr, cmd := startProcessArgs(t, args)
		tc := crashClient(t, addr)
		if round == 0 {
			if _, err := tc.CreateTable(context.Background(), nil); err != nil {
				t.Fatal(err)
			}
		}
		checkIndexAnswers(t, tc)
		if round == 3 {
			cmd.Process.Kill()
			cmd.Wait() // the data directory's lock is free once the process is gone
			break
		}
		acked := writeUntilKilled(t, tc, cmd.Process, round)
		t.Logf("round %d: %d writes acknowledged before SIGKILL", round, acked)
	}
	checkStoreIndexes(t, dir)
}

// crashClient returns a client of table Items at addr that never retries.
func crashClient(t *testing.T, addr string) *aztables.Client {
	t.Helper()
	cred, err := aztables.NewSharedKeyCredential(auth.DevAccountName, auth.DevAccountKey)
	if err != nil {
		t.Fatal(err)
	}
	tc, err := aztables.NewClientWithSharedKey("http://"+addr+"/"+auth.DevAccountName+"/Items", cred,
		&aztables.ClientOptions{ClientOptions: azcore.ClientOptions{Retry: policy.RetryOptions{MaxRetries: -1}}})
	if err != nil {
		t.Fatal(err)
	}
	return tc
}

// writeUntilKilled runs four writers against the server and kills it with SIGKILL once
// they have 300 writes acknowledged, mid-write; it returns the writes acknowledged.
func writeUntilKilled(t *testing.T, tc *aztables.Client, cmd interface{ Kill() error }, round int) int64 {
	t.Helper()
	var acked atomic.Int64
	var killed atomic.Bool
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(round), uint64(w)))
			for !killed.Load() {
				if randomWrite(tc, rng) == nil {
					acked.Add(1)
				}
			}
		}()
	}
	for acked.Load() < 300 {
		time.Sleep(5 * time.Millisecond)
	}
	if err := cmd.Kill(); err != nil {
		t.Fatal(err)
	}
	killed.Store(true)
	wg.Wait()
	if w, ok := cmd.(interface {
		Wait() (*os.ProcessState, error)
	}); ok {
		w.Wait()
	}
	return acked.Load()
}

// crashPrices are the Price values the writers draw from: numbers of each type that
// compare equal across types, and strings.
var crashPrices = []any{
	int32(1), int32(2), aztables.EDMInt64(2), 2.0, 2.5, int32(3), aztables.EDMInt64(9007199254740993), "2", "x",
}

// randomWrite performs one random write on the Items table: an insert, a replace, a
// merge, an upsert of either kind, a delete, or a batch of three.
func randomWrite(tc *aztables.Client, rng *rand.Rand) error {
	ctx := context.Background()
	pk := fmt.Sprintf("p%d", rng.IntN(4))
	rk := func() string { return fmt.Sprintf("r%02d", rng.IntN(40)) }
	ent := func(rk string) []byte {
		props := map[string]any{}
		if rng.IntN(8) > 0 { // some entities lack Price, or lose it on replace
			props["Price"] = crashPrices[rng.IntN(len(crashPrices))]
		}
		b, _ := json.Marshal(aztables.EDMEntity{Entity: aztables.Entity{PartitionKey: pk, RowKey: rk}, Properties: props})
		return b
	}
	var err error
	switch rng.IntN(6) {
	case 0:
		_, err = tc.AddEntity(ctx, ent(rk()), nil)
	case 1:
		_, err = tc.UpdateEntity(ctx, ent(rk()), &aztables.UpdateEntityOptions{UpdateMode: aztables.UpdateModeReplace})
	case 2:
		_, err = tc.UpdateEntity(ctx, ent(rk()), &aztables.UpdateEntityOptions{UpdateMode: aztables.UpdateModeMerge})
	case 3:
		mode := []aztables.UpdateMode{aztables.UpdateModeReplace, aztables.UpdateModeMerge}[rng.IntN(2)]
		_, err = tc.UpsertEntity(ctx, ent(rk()), &aztables.UpsertEntityOptions{UpdateMode: mode})
	case 4:
		_, err = tc.DeleteEntity(ctx, pk, rk(), nil)
	default:
		r := rng.IntN(37)
		_, err = tc.SubmitTransaction(ctx, []aztables.TransactionAction{
			{ActionType: aztables.TransactionTypeInsertReplace, Entity: ent(fmt.Sprintf("r%02d", r))},
			{ActionType: aztables.TransactionTypeInsertMerge, Entity: ent(fmt.Sprintf("r%02d", r+1))},
			{ActionType: aztables.TransactionTypeInsertReplace, Entity: ent(fmt.Sprintf("r%02d", r+2))},
		}, nil)
	}
	return err
}

// checkIndexAnswers compares indexed queries with the full scan, filtered here.
func checkIndexAnswers(t *testing.T, tc *aztables.Client) {
	t.Helper()
	all, plan := listKeys(t, tc, "PartitionKey ge ''")
	if plan != "key range scan" {
		t.Fatalf("full scan ran %q", plan)
	}
	for _, c := range []struct{ filter, plan string }{
		{"Price eq 2", "index(Price) eq"},
		{"Price eq 9007199254740993L", "index(Price) eq"},
		{"Price gt 1 and Price le 2.5", "index(Price) range and index(Price) range"},
		{"Price eq 'x' or Price lt 2", "index(Price) eq or index(Price) range"},
	} {
		got, plan := listKeys(t, tc, c.filter)
		if plan != c.plan {
			t.Fatalf("%q ran %q, want %q", c.filter, plan, c.plan)
		}
		f, err := query.ParseFilter(c.filter)
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		for _, e := range all {
			if f.Matches(e) {
				want = append(want, e.PartitionKey+"/"+e.RowKey)
			}
		}
		var keys []string
		for _, e := range got {
			keys = append(keys, e.PartitionKey+"/"+e.RowKey)
		}
		if !slices.Equal(keys, want) {
			t.Fatalf("%q: index answers %v, scan %v", c.filter, keys, want)
		}
	}
}

// listKeys runs a query to its end and returns its entities and the plan of its first page.
func listKeys(t *testing.T, tc *aztables.Client, filter string) ([]*model.Entity, string) {
	t.Helper()
	var out []*model.Entity
	var plan string
	pager := tc.NewListEntitiesPager(&aztables.ListEntitiesOptions{Filter: &filter})
	for pager.More() {
		var raw *http.Response
		page, err := pager.NextPage(runtime.WithCaptureResponse(context.Background(), &raw))
		if err != nil {
			t.Fatal(err)
		}
		if plan == "" {
			plan = raw.Header.Get(rest.PlanHeader)
		}
		for _, b := range page.Entities {
			e, err := wire.DecodeEntity(b)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, e)
		}
	}
	return out, plan
}

// checkStoreIndexes opens the data directory the killed server left and checks its
// indexes entry by entry.
func checkStoreIndexes(t *testing.T, dir string) {
	t.Helper()
	st, err := openStore(dir, auth.DevAccountName, core.Options{}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if err := st.View(func(tx *core.Tx) error { return tx.CheckIndexes("Items") }); err != nil {
		t.Fatal(err)
	}
}

// TestRun_IndexFlag checks that -index declares the index on a table created afterwards.
func TestRun_IndexFlag(t *testing.T) {
	s := start(t, config{data: memoryData, web: "none", quiet: true, indexes: indexFlag{{Table: "Orders", Property: "Price"}}})
	tc := client(t, s, "Orders")
	if _, err := tc.CreateTable(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	if _, plan := listKeys(t, tc, "Price eq 3"); plan != "index(Price) eq" {
		t.Fatalf("plan %q", plan)
	}
}
