// Command loadgen is the load generator of make bench's side-by-side run (worker/native/bench/run.sh):
// it drives Azurite, Tabletop's native server, optionally Tabletop's REST handler
// through net/http's server instead of the native server's own HTTP/1.1 layer (which it
// also serves, with -serve-stdlib), and a trivial net/http handler (the floor, which it
// also serves, with -serve) through the same client and workloads, and prints the rates
// and their ratios. Each workload runs in rounds in which the targets take
// turns (see rounds), so that the background load of a shared machine falls on all alike.
//
// Workloads, with -clients keep-alive clients over loopback, every request signed with
// SharedKeyLite as the Azure SDKs sign it:
//
//	inserts/s    Insert Entity of -entities entities (20 partitions), Prefer: return-no-content
//	gets/s       Get Entity of a random entity
//	pages/s      Query Entities of a whole 1,000-entity partition (PartitionKey eq)
//	scans/s      Query Entities "Count ge N" over the whole table, 50 matches
//	busyscans    the same scans from all clients but one, while that one inserts entities
//	             the scan does not match: scans/s and that client's inserts/s
//
// The floor answers inserts with 204 and gets with a small entity, after reading the
// request: what net/http itself costs on this machine.
package main

import (
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"
)

func main() {
	var cfg config
	serve := flag.String("serve", "", "serve the floor handler on this address and print its URL, instead of running the load")
	serveStd := flag.String("serve-stdlib", "", "serve Tabletop's REST handler through net/http on this address and print its endpoint, instead of running the load")
	flag.StringVar(&cfg.azurite, "azurite", "", "Azurite's table endpoint, path style: http://127.0.0.1:PORT/devstoreaccount1")
	flag.StringVar(&cfg.tabletop, "tabletop", "", "Tabletop's table endpoint, path style")
	flag.StringVar(&cfg.stdlib, "stdlib", "", "the endpoint of Tabletop's REST handler served through net/http (-serve-stdlib); none: not measured")
	flag.StringVar(&cfg.floor, "floor", "", "the floor handler's endpoint")
	flag.StringVar(&cfg.account, "account", "devstoreaccount1", "account name")
	flag.StringVar(&cfg.key, "key", devKey, "account key (base64)")
	flag.IntVar(&cfg.clients, "clients", 8, "concurrent keep-alive clients")
	flag.IntVar(&cfg.entities, "entities", 20_000, "entities to insert (20 partitions)")
	flag.DurationVar(&cfg.phase, "phase", 3*time.Second, "how long each read workload runs")
	workloads := flag.String("workloads", strings.Join(workloadNames[:], ","), "the workloads to run, comma-separated; they run in this order, and the others read what inserts wrote")
	flag.Parse()
	var err error
	if cfg.workloads, err = parseWorkloads(*workloads); err != nil {
		fmt.Fprintln(os.Stderr, "loadgen:", err)
		os.Exit(2)
	}
	if *serve != "" || *serveStd != "" {
		serveFn, addr := serveFloor, *serve
		if *serveStd != "" {
			serveFn, addr = serveStdlib, *serveStd
		}
		fmt.Fprintln(os.Stderr, "loadgen:", serveFn(addr)) // serves until killed
		os.Exit(1)
	}
	if err := run(cfg); err != nil {
		fmt.Fprintln(os.Stderr, "loadgen:", err)
		os.Exit(1)
	}
}

// devKey is the well-known key of devstoreaccount1, Azurite's and Tabletop's default.
const devKey = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="

type config struct {
	azurite, tabletop, floor string
	stdlib                   string // "": not measured
	account, key             string
	clients, entities        int
	phase                    time.Duration
	workloads                [workloadCount]bool // which of workloadNames run
}

// workloadCount is how many workloads there are.
const workloadCount = 5

// workloadNames are the workloads as -workloads names them, in the order they run.
var workloadNames = [workloadCount]string{"inserts", "gets", "pages", "scans", "busyscans"}

// parseWorkloads reads -workloads: a comma-separated list of workloadNames.
func parseWorkloads(s string) ([workloadCount]bool, error) {
	var on [workloadCount]bool
	for name := range strings.SplitSeq(s, ",") {
		i := slices.Index(workloadNames[:], strings.TrimSpace(name))
		if i < 0 {
			return on, fmt.Errorf("-workloads: %q is none of %s", name, strings.Join(workloadNames[:], ", "))
		}
		on[i] = true
	}
	return on, nil
}

// run measures the targets and prints the table.
func run(cfg config) error {
	if cfg.entities%(20*rounds) != 0 || cfg.entities/20 < 1000 {
		return fmt.Errorf("-entities must be a multiple of %d of at least 20,000", 20*rounds)
	}
	az, err := newTarget(cfg, "azurite", cfg.azurite, false)
	if err != nil {
		return err
	}
	tt, err := newTarget(cfg, "tabletop", cfg.tabletop, false)
	if err != nil {
		return err
	}
	fl, err := newTarget(cfg, "floor", cfg.floor, true)
	if err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "azurite %s\ntabletop %s\nfloor %s\n", cfg.azurite, cfg.tabletop, cfg.floor)
	targets := []*target{az, tt, fl}
	if cfg.stdlib != "" {
		std, err := newTarget(cfg, "tabletop on net/http", cfg.stdlib, false)
		if err != nil {
			return err
		}
		fmt.Fprintf(os.Stderr, "tabletop on net/http %s\n", cfg.stdlib)
		targets = append(targets, std)
	}
	if err := measure(cfg, targets...); err != nil {
		return err
	}
	var std rates
	if len(targets) > 3 {
		std = targets[3].rates()
	}
	printTable(cfg, az.rates(), tt.rates(), std, fl.rates())
	return nil
}

// printTable prints the rates and their ratios as a Markdown table; the columns of
// Tabletop on net/http only when it was measured (std not zero).
func printTable(cfg config, az, tt, std, fl rates) {
	withStd := std != rates{}
	fmt.Printf("\n%d keep-alive clients, loopback, %d entities\n\n", cfg.clients, cfg.entities)
	if withStd {
		fmt.Printf("| | Azurite | Tabletop | Tabletop on net/http | net/http floor | Tabletop ÷ Azurite | Tabletop ÷ on net/http | Tabletop ÷ floor |\n|---|---:|---:|---:|---:|---:|---:|---:|\n")
	} else {
		fmt.Printf("| | Azurite | Tabletop | net/http floor | Tabletop ÷ Azurite | Tabletop ÷ floor |\n|---|---:|---:|---:|---:|---:|\n")
	}
	row := func(w int, name string, a, t, s, f float64) {
		if !cfg.workloads[w] {
			return
		}
		floor, ratio := "", ""
		if f > 0 {
			floor, ratio = fmt.Sprintf("%.0f", f), fmt.Sprintf("%.0f%%", 100*t/f)
		}
		if withStd {
			fmt.Printf("| %s | %.1f | %.1f | %.1f | %s | %.1f× | %.2f× | %s |\n", name, a, t, s, floor, t/a, t/s, ratio)
			return
		}
		fmt.Printf("| %s | %.1f | %.1f | %s | %.1f× | %s |\n", name, a, t, floor, t/a, ratio)
	}
	row(0, "inserts/s", az.inserts, tt.inserts, std.inserts, fl.inserts)
	row(1, "point gets/s", az.gets, tt.gets, std.gets, fl.gets)
	row(2, "1,000-entity partition pages/s", az.pages, tt.pages, std.pages, 0)
	row(3, fmt.Sprintf("filter scans/s (Count ge N, %d entities, 50 match)", cfg.entities), az.scans, tt.scans, std.scans, 0)
	row(4, fmt.Sprintf("the same scans/s from %d clients while 1 inserts", max(1, cfg.clients-1)), az.busyScans, tt.busyScans, std.busyScans, 0)
	row(4, "that client's inserts/s beside the scans", az.busyInserts, tt.busyInserts, std.busyInserts, 0)
}
