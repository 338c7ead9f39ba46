package transfer

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/worker/native/transfer/endpoint"
)

// windowSize is how many entities a copy reads before it writes them, grouped by partition.
const windowSize = 2000

// maxBatchBytes bounds a batch's entities (by Azure's size formula) well under the 4 MiB
// a $batch request may carry.
const maxBatchBytes = 2 << 20

// Job is one copy: its ends, what it reads, and how it reports and recovers.
type Job struct {
	Source Source
	Sink   Sink
	Select Selection
	// Checkpoint, when set, is resumed from and updated after every window.
	Checkpoint *Checkpoint
	// Failures, when set, receives the entities that could not be written and the copy goes
	// on (--keep-going); otherwise the first failure stops the copy.
	Failures *Failures
	Progress *Progress
}

// window is a run of entities of one table, in source order.
type window struct {
	table    string
	begin    bool  // first window of its table
	end      bool  // last window of its table
	first    int64 // ordinal of the first entity in the table
	entities []*model.Entity
}

// Run copies until the source ends, an error stops it, or ctx is done.
func (j *Job) Run(ctx context.Context) error {
	if j.Checkpoint == nil {
		j.Checkpoint = &Checkpoint{}
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	start := j.Checkpoint.snapshot()
	windows := make(chan window, 4)
	readErr := make(chan error, 1)
	go func() {
		defer close(windows)
		readErr <- j.read(ctx, start, windows)
	}()
	if err := j.writeAll(ctx, start, windows); err != nil {
		cancel()
		for range windows {
		}
		return err
	}
	if err := <-readErr; err != nil {
		return err
	}
	return j.Checkpoint.finish()
}

// read cuts the source into windows, skipping what the checkpoint says is written.
func (j *Job) read(ctx context.Context, cp Checkpoint, out chan<- window) error {
	c := &windower{ctx: ctx, out: out, cp: cp}
	sel := j.Select
	sel.done = cp.Done
	if _, c.seeks = j.Source.(seeker); c.seeks && cp.Table != "" {
		sel.resume = &resumePoint{table: cp.Table, pk: cp.PartitionKey, rk: cp.RowKey}
	}
	if err := j.Source.Read(ctx, &sel, c.add); err != nil {
		return err
	}
	c.w.end = true
	return c.send(window{})
}

// windower cuts a source's stream of entities into windows.
type windower struct {
	ctx     context.Context
	out     chan<- window
	cp      Checkpoint // where the copy resumes
	seeks   bool       // the source starts a resumed table after its written entities
	w       window     // the window being filled
	ordinal int64      // of the last entity seen in its table
}

// add takes the start of a table (e nil) or its next entity.
func (c *windower) add(table string, e *model.Entity) error {
	if e == nil {
		c.w.end = true
		c.ordinal = 0
		if c.seeks && table == c.cp.Table {
			c.ordinal = c.cp.Entities
		}
		return c.send(window{table: table, begin: true})
	}
	c.ordinal++
	if table == c.cp.Table && c.ordinal <= c.cp.Entities {
		return nil
	}
	if len(c.w.entities) == 0 {
		c.w.first = c.ordinal
	}
	c.w.entities = append(c.w.entities, e)
	if len(c.w.entities) < windowSize {
		return nil
	}
	return c.send(window{table: table})
}

// send passes the current window on (unless its table is done) and starts next.
func (c *windower) send(next window) error {
	if c.w.table != "" && !c.cp.isDone(c.w.table) {
		select {
		case c.out <- c.w:
		case <-c.ctx.Done():
			return c.ctx.Err()
		}
	}
	c.w = next
	return nil
}

// flight is a window being written: done yields its batches' joined error.
type flight struct {
	w    window
	done <-chan error
}

// writeAll writes the windows in order. An endpoint gets the next window's batches while
// the last batches of the previous one are still out, so that it is never idle waiting
// for the slowest; a window is checkpointed once it and all before it are written. A dump
// is written one window after the other.
func (j *Job) writeAll(ctx context.Context, start Checkpoint, windows <-chan window) error {
	sem := make(chan struct{}, max(1, j.Sink.Parallel()))
	limit := 2
	if j.Sink.Ordered() {
		limit = 1
	}
	var out []flight
	land := func(n int) error { // lands flights, oldest first, until at most n are out
		for len(out) > n {
			f := out[0]
			out = out[1:]
			err := <-f.done
			if err == nil {
				err = j.Checkpoint.advance(j.Sink, f.w)
			}
			if err != nil {
				for _, rest := range out { // let them end before the sink is closed
					<-rest.done
				}
				return err
			}
		}
		return nil
	}
	for w := range windows {
		if w.begin { // a table starts once the previous one is written
			if err := land(0); err != nil {
				return err
			}
			if err := j.begin(ctx, start, w.table); err != nil {
				return err
			}
		}
		out = append(out, flight{w: w, done: j.dispatch(ctx, sem, w)})
		if err := land(limit - 1); err != nil {
			return err
		}
	}
	return land(0)
}

// begin starts a table at the destination.
func (j *Job) begin(ctx context.Context, start Checkpoint, table string) error {
	resumed := table == start.Table && start.Entities > 0
	if err := j.Sink.BeginTable(ctx, table, resumed); err != nil {
		return fmt.Errorf("create table %s: %w", table, err)
	}
	j.Progress.table(table)
	return nil
}

// dispatch starts writing w's batches, each as soon as sem has room (so they start in
// order), and returns a channel that yields their joined error once all are written.
func (j *Job) dispatch(ctx context.Context, sem chan struct{}, w window) <-chan error {
	batches := partitionBatches(w.entities)
	if j.Sink.Ordered() {
		batches = chunks(w.entities)
	}
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		errs []error
	)
	for _, b := range batches {
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			if err := j.writeBatch(ctx, w.table, b); err != nil {
				mu.Lock()
				errs = append(errs, err)
				mu.Unlock()
			}
		}()
	}
	done := make(chan error, 1)
	go func() {
		wg.Wait()
		done <- errors.Join(errs...)
	}()
	return done
}

// chunks cuts es into runs of at most 100, in order.
func chunks(es []*model.Entity) [][]*model.Entity {
	var out [][]*model.Entity
	for len(es) > 0 {
		n := min(len(es), endpoint.MaxBatch)
		out, es = append(out, es[:n]), es[n:]
	}
	return out
}

// partitionBatches groups es by PartitionKey, keeping their order within each partition,
// into batches of at most 100 entities and maxBatchBytes.
func partitionBatches(es []*model.Entity) [][]*model.Entity {
	var order []string
	groups := map[string][]*model.Entity{}
	for _, e := range es {
		if _, ok := groups[e.PartitionKey]; !ok {
			order = append(order, e.PartitionKey)
		}
		groups[e.PartitionKey] = append(groups[e.PartitionKey], e)
	}
	var out [][]*model.Entity
	for _, pk := range order {
		var cur []*model.Entity
		size := 0
		for _, e := range groups[pk] {
			if len(cur) == endpoint.MaxBatch || (len(cur) > 0 && size+e.Size() > maxBatchBytes) {
				out, cur, size = append(out, cur), nil, 0
			}
			cur = append(cur, e)
			size += e.Size()
		}
		out = append(out, cur)
	}
	return out
}
