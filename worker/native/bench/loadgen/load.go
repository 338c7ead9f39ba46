package main

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// rates are one target's results, per second.
type rates struct{ inserts, gets, pages, scans, busyScans, busyInserts float64 }

const (
	table      = "bench"
	partitions = 20
	matches    = 50
)

// rounds is how many slices each workload is cut into. The targets take turns slice by
// slice, so that a change in what else the machine runs falls on every target alike
// rather than on whichever ran at that moment.
const rounds = 10

// entityBody is the JSON of entity i: partition i%20, a name, a Count and two more values.
func entityBody(i int) string {
	return fmt.Sprintf(`{"PartitionKey":"p%02d","RowKey":"%06d","Name":"entity number %d","Count":%d,"Score":%d.5,"Active":%t}`,
		i%partitions, i, i, i, i%100, i%2 == 0)
}

// target is one server under measurement: a Table service endpoint, or the floor, which
// runs only the insert and get workloads.
type target struct {
	name  string
	c     *client
	floor bool
	work  [workloadCount]meter // as workloadNames
	busy  meter                // the inserts of busyscans
	wrote int                  // the entities busyscans inserted
}

// meter is what a target did of one workload: operations and the time they took.
type meter struct {
	ops  int
	took time.Duration
}

// rate is operations per second, 0 for a workload not run.
func (m meter) rate() float64 {
	if m.took == 0 {
		return 0
	}
	return float64(m.ops) / m.took.Seconds()
}

func (t *target) rates() rates {
	return rates{t.work[0].rate(), t.work[1].rate(), t.work[2].rate(), t.work[3].rate(), t.work[4].rate(), t.busy.rate()}
}

// newTarget connects to an endpoint and, unless it is the floor, creates the table.
func newTarget(cfg config, name, base string, floor bool) (*target, error) {
	c, err := newClient(cfg, base, cfg.clients)
	if err != nil {
		return nil, err
	}
	t := &target{name: name, c: c, floor: floor}
	if !floor {
		res, err := c.do(http.MethodPost, "/Tables", `{"TableName":"`+table+`"}`)
		if err != nil || res.status != http.StatusNoContent && res.status != http.StatusCreated {
			return nil, fmt.Errorf("%s: create table: %v %v", name, err, res)
		}
	}
	return t, nil
}

// measure runs the workloads cfg selects on the targets, each workload in rounds in which every
// target takes its turn.
func measure(cfg config, targets ...*target) error {
	perRound := cfg.entities / rounds
	for w := range workloadCount {
		if !cfg.workloads[w] {
			continue
		}
		for r := range rounds {
			for _, t := range targets {
				if t.floor && w > 1 {
					continue
				}
				start := time.Now()
				n, err := t.step(cfg, w, r*perRound, (r+1)*perRound)
				if err != nil {
					return fmt.Errorf("%s: %s: %w", t.name, workloadNames[w], err)
				}
				t.work[w].ops += n
				t.work[w].took += time.Since(start)
			}
		}
	}
	return nil
}

// step runs one slice of workload w on the target, inserting entities [from, to) or
// reading for a round's share of the phase, and returns the operations done.
func (t *target) step(cfg config, w, from, to int) (int, error) {
	slice := cfg.phase / rounds
	perPartition := cfg.entities / partitions
	switch w {
	case 0:
		return count(cfg.clients, from, to, func(i int) error {
			return expect(t.c.do(http.MethodPost, "/"+table, entityBody(i)))(http.StatusNoContent)
		})
	case 1:
		if t.floor {
			return during(cfg.clients, slice, func() error {
				return expect(t.c.do(http.MethodGet, "/"+table+"(PartitionKey='p01',RowKey='000001')", ""))(http.StatusOK)
			})
		}
		return during(cfg.clients, slice, func() error {
			i := rand.IntN(cfg.entities)
			return expect(t.c.do(http.MethodGet, fmt.Sprintf("/%s(PartitionKey='p%02d',RowKey='%06d')", table, i%partitions, i), ""))(http.StatusOK)
		})
	case 2:
		return during(cfg.clients, slice, func() error {
			return expectCount(t.c.query(table, fmt.Sprintf("PartitionKey eq 'p%02d'", rand.IntN(partitions))))(perPartition)
		})
	case 3:
		return during(cfg.clients, slice, t.scan(cfg))
	default:
		return t.busyScans(cfg, slice)
	}
}

// scan returns the filter scan: "Count ge N", which matches the last 50 entities inserted.
func (t *target) scan(cfg config) func() error {
	return func() error {
		return expectCount(t.c.query(table, fmt.Sprintf("Count ge %d", cfg.entities-matches)))(matches)
	}
}

// busyScans runs the filter scan from all clients but one for d while that one inserts
// entities the scan reads but does not match (Count -1), so that the table changes
// between scans, and returns the scans done. The table grows by what the inserting
// client managed, so a target that inserts faster scans more entities.
func (t *target) busyScans(cfg config, d time.Duration) (int, error) {
	stop := make(chan struct{})
	var werr error
	var wg sync.WaitGroup
	start := time.Now()
	wg.Go(func() {
		for {
			select {
			case <-stop:
				return
			default:
			}
			i := t.wrote
			body := fmt.Sprintf(`{"PartitionKey":"p%02d","RowKey":"w%07d","Name":"written while scanned %d","Count":-1,"Score":0.5,"Active":false}`, i%partitions, i, i)
			if werr = expect(t.c.do(http.MethodPost, "/"+table, body))(http.StatusNoContent); werr != nil {
				return
			}
			t.wrote++
			t.busy.ops++
		}
	})
	n, err := during(max(1, cfg.clients-1), d, t.scan(cfg))
	close(stop)
	wg.Wait()
	t.busy.took += time.Since(start)
	if err == nil {
		err = werr
	}
	return n, err
}

func expect(res *response, err error) func(status int) error {
	return func(status int) error {
		if err != nil {
			return err
		}
		if res.status != status {
			return fmt.Errorf("status %d, want %d: %.300s", res.status, status, res.body)
		}
		return nil
	}
}

func expectCount(n int, err error) func(want int) error {
	return func(want int) error {
		if err == nil && n != want {
			err = fmt.Errorf("%d entities, want %d", n, want)
		}
		return err
	}
}

// count runs op(from) … op(to-1) from the given number of goroutines and returns how
// many it ran.
func count(workers, from, to int, op func(i int) error) (int, error) {
	var next atomic.Int64
	next.Store(int64(from))
	err := parallel(workers, func() (bool, error) {
		i := int(next.Add(1)) - 1
		if i >= to {
			return false, nil
		}
		return true, op(i)
	})
	return to - from, err
}

// during runs op from the given number of goroutines for d and returns how many times.
func during(workers int, d time.Duration, op func() error) (int, error) {
	var done atomic.Int64
	deadline := time.Now().Add(d)
	err := parallel(workers, func() (bool, error) {
		if time.Now().After(deadline) {
			return false, nil
		}
		done.Add(1)
		return true, op()
	})
	return int(done.Load()), err
}

// parallel calls step from each of the workers until it returns false or an error.
func parallel(workers int, step func() (bool, error)) error {
	var wg sync.WaitGroup
	var first atomic.Value
	for range workers {
		wg.Go(func() {
			for first.Load() == nil {
				more, err := step()
				if err != nil {
					first.CompareAndSwap(nil, err)
					return
				}
				if !more {
					return
				}
			}
		})
	}
	wg.Wait()
	if err, _ := first.Load().(error); err != nil {
		return err
	}
	return nil
}
