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
type rates struct{ inserts, gets, pages, scans float64 }

const (
	table      = "bench"
	partitions = 20
	matches    = 50
)

// entityBody is the JSON of entity i: partition i%20, a name, a Count and two more values.
func entityBody(i int) string {
	return fmt.Sprintf(`{"PartitionKey":"p%02d","RowKey":"%06d","Name":"entity number %d","Count":%d,"Score":%d.5,"Active":%t}`,
		i%partitions, i, i, i, i%100, i%2 == 0)
}

// measure fills a fresh table on a Table service endpoint and runs the four workloads.
func measure(cfg config, base string) (rates, error) {
	c, err := newClient(cfg, base, cfg.clients)
	if err != nil {
		return rates{}, err
	}
	res, err := c.do(http.MethodPost, "/Tables", `{"TableName":"`+table+`"}`)
	if err != nil || res.status != http.StatusNoContent && res.status != http.StatusCreated {
		return rates{}, fmt.Errorf("create table: %v %v", err, res)
	}
	var r rates
	r.inserts, err = count(cfg.clients, cfg.entities, func(i int) error {
		return expect(c.do(http.MethodPost, "/"+table, entityBody(i)))(http.StatusNoContent)
	})
	if err != nil {
		return r, fmt.Errorf("insert: %w", err)
	}
	perPartition := cfg.entities / partitions
	r.gets, err = during(cfg.clients, cfg.phase, func() error {
		i := rand.IntN(cfg.entities)
		return expect(c.do(http.MethodGet, fmt.Sprintf("/%s(PartitionKey='p%02d',RowKey='%06d')", table, i%partitions, i), ""))(http.StatusOK)
	})
	if err != nil {
		return r, fmt.Errorf("get: %w", err)
	}
	r.pages, err = during(cfg.clients, cfg.phase, func() error {
		return expectCount(c.query(table, fmt.Sprintf("PartitionKey eq 'p%02d'", rand.IntN(partitions))))(perPartition)
	})
	if err != nil {
		return r, fmt.Errorf("partition page: %w", err)
	}
	r.scans, err = during(cfg.clients, cfg.phase, func() error {
		return expectCount(c.query(table, fmt.Sprintf("Count ge %d", cfg.entities-matches)))(matches)
	})
	if err != nil {
		return r, fmt.Errorf("filter scan: %w", err)
	}
	return r, nil
}

// measureFloor runs the insert and get workloads against the floor handler.
func measureFloor(cfg config, base string) (rates, error) {
	c, err := newClient(cfg, base, cfg.clients)
	if err != nil {
		return rates{}, err
	}
	var r rates
	if r.inserts, err = count(cfg.clients, cfg.entities, func(i int) error {
		return expect(c.do(http.MethodPost, "/"+table, entityBody(i)))(http.StatusNoContent)
	}); err != nil {
		return r, err
	}
	r.gets, err = during(cfg.clients, cfg.phase, func() error {
		return expect(c.do(http.MethodGet, "/"+table+"(PartitionKey='p01',RowKey='000001')", ""))(http.StatusOK)
	})
	return r, err
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

// count runs op(0) … op(n-1) from the given number of goroutines and returns ops per second.
func count(workers, n int, op func(i int) error) (float64, error) {
	var next atomic.Int64
	start := time.Now()
	err := parallel(workers, func() (bool, error) {
		i := int(next.Add(1)) - 1
		if i >= n {
			return false, nil
		}
		return true, op(i)
	})
	return float64(n) / time.Since(start).Seconds(), err
}

// during runs op from the given number of goroutines for d and returns ops per second.
func during(workers int, d time.Duration, op func() error) (float64, error) {
	var done atomic.Int64
	start := time.Now()
	deadline := start.Add(d)
	err := parallel(workers, func() (bool, error) {
		if time.Now().After(deadline) {
			return false, nil
		}
		done.Add(1)
		return true, op()
	})
	return float64(done.Load()) / time.Since(start).Seconds(), err
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
