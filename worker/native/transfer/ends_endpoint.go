package transfer

import (
	"context"
	"slices"

	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/worker/native/transfer/endpoint"
)

// endpointEnd reads or writes a Table service account through its REST API.
type endpointEnd struct {
	c        *endpoint.Client
	parallel int
}

// Read lists the account's tables (or takes the chosen ones) and queries each with the
// selection's filter, which the service applies.
func (s *endpointEnd) Read(ctx context.Context, sel *Selection, fn func(string, *model.Entity) error) error {
	tables := sel.Tables
	if len(tables) == 0 {
		var err error
		if tables, err = s.c.Tables(ctx); err != nil {
			return err
		}
	}
	for _, t := range tables {
		if slices.Contains(sel.done, t) {
			continue
		}
		if err := fn(t, nil); err != nil {
			return err
		}
		err := s.c.Query(ctx, t, sel.filterFor(t), func(e *model.Entity) error { return fn(t, e) })
		if err != nil {
			return err
		}
	}
	return nil
}

// Seeks marks the endpoint as read in key order, resumable after a key.
func (s *endpointEnd) Seeks() {}

// BeginTable creates the table unless it exists.
func (s *endpointEnd) BeginTable(ctx context.Context, table string, _ bool) error {
	return s.c.CreateTable(ctx, table)
}

// Write upserts es in one $batch.
func (s *endpointEnd) Write(ctx context.Context, table string, es []*model.Entity) error {
	return s.c.Upsert(ctx, table, es)
}

// Sync has nothing to do: the service acknowledged each batch.
func (s *endpointEnd) Sync() (int64, error) { return 0, nil }

// Parallel is how many batches are sent at once.
func (s *endpointEnd) Parallel() int { return s.parallel }

// Ordered is false: an endpoint takes batches of one partition, in parallel.
func (s *endpointEnd) Ordered() bool { return false }

// Close has nothing to release.
func (s *endpointEnd) Close() error { return nil }
