//go:build !js

package native

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/tabletopdb/tabletop/core/backend/backendtest"
	"github.com/tabletopdb/tabletop/worker/rest/auth"
)

// TestRun_DiskFull: on a full disk an insert is answered 503 ServerBusy saying so, the
// cause is logged once even with -quiet, reads go on, and writes resume by themselves
// once space is freed.
func TestRun_DiskFull(t *testing.T) {
	mnt := backendtest.MountSmall(t, "4m")
	filler := filepath.Join(mnt, "filler")
	os.WriteFile(filler, make([]byte, 2<<20), 0o644)
	s := start(t, config{data: mnt, quiet: true, web: "none"})
	c := client(t, s, "Full")
	ctx := context.Background()
	if _, err := c.CreateTable(ctx, nil); err != nil {
		t.Fatal(err)
	}
	pad := strings.Repeat("x", 4000)
	var refused *azcore.ResponseError
	acked := 0
	for i := 0; refused == nil && i < 10000; i++ {
		_, err := c.AddEntity(ctx, []byte(fmt.Sprintf(`{"PartitionKey":"p","RowKey":"%06d","Pad":%q}`, i, pad)), nil)
		if err == nil {
			acked++
		} else if !errors.As(err, &refused) {
			t.Fatal(err)
		}
	}
	if refused == nil || refused.StatusCode != http.StatusServiceUnavailable || refused.ErrorCode != "ServerBusy" {
		t.Fatalf("insert on a full disk: %v, want 503 ServerBusy", refused)
	}
	if !strings.Contains(refused.Error(), "disk is full") {
		t.Fatalf("the answer does not say what happened: %v", refused)
	}
	c.AddEntity(ctx, []byte(`{"PartitionKey":"p","RowKey":"again"}`), nil) // refused too, logged no more
	if _, err := c.GetEntity(ctx, "p", "000000", nil); err != nil {
		t.Fatalf("read while the disk is full: %v", err)
	}
	os.Remove(filler)
	if _, err := c.AddEntity(ctx, []byte(`{"PartitionKey":"p","RowKey":"after"}`), nil); err != nil {
		t.Fatalf("insert once space is freed: %v", err)
	}
	logs := s.log.String()
	if strings.Count(logs, "the disk is full") != 1 || strings.Count(logs, "no space left on device") != 1 ||
		strings.Count(logs, "writes work again") != 1 {
		t.Fatalf("log after %d inserts, a full disk and freed space:\n%s", acked, logs)
	}
}

// TestRun_DamagedStore: the server refuses a store whose log is damaged, naming the
// salvage command, and leaves the log as it is; salvage then keeps every intact record.
func TestRun_DamagedStore(t *testing.T) {
	data := t.TempDir()
	cfg := config{data: data, quiet: true, web: "none"}
	s := start(t, cfg)
	c := client(t, s, "Hurt")
	ctx := context.Background()
	c.CreateTable(ctx, nil)
	for i := range 50 {
		if _, err := c.AddEntity(ctx, []byte(fmt.Sprintf(`{"PartitionKey":"p","RowKey":"%03d"}`, i)), nil); err != nil {
			t.Fatal(err)
		}
	}
	s.stop()
	dir := filepath.Join(data, auth.DevAccountName)
	log := filepath.Join(dir, "log")
	b, _ := os.ReadFile(log)
	b[len(b)/2] ^= 1
	os.WriteFile(log, b, 0o644)

	cfg.addr = "127.0.0.1:0"
	err := run(ctx, cfg, &bytes.Buffer{}, &bytes.Buffer{})
	if err == nil || !strings.Contains(err.Error(), "damaged") || !strings.Contains(err.Error(), "tabletop salvage "+dir) {
		t.Fatalf("start on a damaged log: %v", err)
	}
	if after, _ := os.ReadFile(log); !bytes.Equal(after, b) {
		t.Fatal("the refused start changed the log")
	}
	var out, errw bytes.Buffer
	if code := runSalvage([]string{"salvage", dir}, &out, &errw); code != 0 {
		t.Fatalf("salvage: exit %d: %s", code, errw.String())
	}
	if !strings.Contains(out.String(), "the damaged file is kept as") {
		t.Fatalf("salvage said:\n%s", out.String())
	}
	s = start(t, cfg)
	found := 0
	pager := client(t, s, "Hurt").NewListEntitiesPager(nil)
	for pager.More() {
		page, err := pager.NextPage(ctx)
		if err != nil {
			t.Fatal(err)
		}
		found += len(page.Entities)
	}
	if found != 49 {
		t.Fatalf("after salvage %d entities, want the 49 intact ones", found)
	}
}
