package main

import (
	"net/http/httptest"
	"testing"
	"time"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/worker/rest"
	"github.com/tabletopdb/tabletop/worker/rest/auth"
	"github.com/tabletopdb/tabletop/worker/rest/nethttp"
)

// TestMeasure runs every workload, briefly, against the REST handler and the floor, taking
// turns: the requests are signed and answered as the load generator expects (a page holds
// its whole partition, the scan its 50 matches), so make bench measures what it claims.
func TestMeasure(t *testing.T) {
	st, err := core.Open(core.Options{})
	if err != nil {
		t.Fatal(err)
	}
	h, err := rest.New(rest.Options{Accounts: []*rest.Account{{Account: auth.DevAccount(), Store: st}}})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(nethttp.Handler(h))
	defer srv.Close()
	cfg := config{account: auth.DevAccountName, key: devKey, clients: 4, entities: 20_000, phase: 50 * time.Millisecond,
		workloads: [workloadCount]bool{true, true, true, true, true}}
	tt, err := newTarget(cfg, "tabletop", srv.URL+"/"+auth.DevAccountName, false)
	if err != nil {
		t.Fatal(err)
	}
	floor := httptest.NewServer(floorHandler())
	defer floor.Close()
	fl, err := newTarget(cfg, "floor", floor.URL+"/"+auth.DevAccountName, true)
	if err != nil {
		t.Fatal(err)
	}
	if err := measure(cfg, tt, fl); err != nil {
		t.Fatal(err)
	}
	if f := fl.rates(); f.inserts <= 0 || f.gets <= 0 || f.pages != 0 || f.scans != 0 || f.busyScans != 0 || f.busyInserts != 0 {
		t.Fatalf("floor rates %+v", f)
	}
	r := tt.rates()
	if r.inserts <= 0 || r.gets <= 0 || r.pages <= 0 || r.scans <= 0 || r.busyScans <= 0 || r.busyInserts <= 0 {
		t.Fatalf("rates %+v", r)
	}
	if n, err := mustClient(t, cfg, srv.URL).query(table, "Count ge 19950"); err != nil || n != matches {
		t.Fatalf("scan: %d entities, %v", n, err)
	}
}

func mustClient(t *testing.T, cfg config, url string) *client {
	c, err := newClient(cfg, url+"/"+auth.DevAccountName, 1)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestParseWorkloads(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		for in, want := range map[string][workloadCount]bool{
			"inserts,gets,pages,scans":           {true, true, true, true},
			"inserts,gets,pages,scans,busyscans": {true, true, true, true, true},
			"inserts":                            {true, false, false, false},
			"scans, inserts":                     {true, false, false, true},
		} {
			if got, err := parseWorkloads(in); err != nil || got != want {
				t.Errorf("parseWorkloads(%q) = %v, %v; want %v", in, got, err, want)
			}
		}
	})
	t.Run("ErrUnknown", func(t *testing.T) {
		for _, in := range []string{"", "insert", "inserts,,gets"} {
			if _, err := parseWorkloads(in); err == nil {
				t.Errorf("parseWorkloads(%q) accepted", in)
			}
		}
	})
}
