package rest

import (
	"strconv"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/azerr"
	"github.com/tabletopdb/tabletop/core/query"
	"github.com/tabletopdb/tabletop/core/wire"
	"github.com/tabletopdb/tabletop/worker/rest/auth"
	"github.com/tabletopdb/tabletop/worker/rest/exchange"
)

// The change feed extension (the README's "Sync protocol"): GET /{table}()?comp=changes,
// which no Azure client sends, answers a page of the table's changes after a checkpoint.
const (
	// compChanges is the comp value of the change feed.
	compChanges = "changes"
	// sinceParam is the query parameter holding the checkpoint to resume after; absent or
	// empty starts the feed.
	sinceParam = "since"
	// CheckpointHeader is the response header holding the checkpoint to send as since
	// for the next page; the body's tabletop.checkpoint holds it too, for browsers whose
	// CORS rule does not expose the header.
	CheckpointHeader = "x-tabletop-checkpoint"
	// MoreHeader is the response header saying whether more changes may follow ("true")
	// or the feed was read to its end ("false").
	MoreHeader = "x-tabletop-more"
)

// Errors of the change feed.
var (
	// ErrCheckpointInvalid means since is not a checkpoint this server wrote.
	ErrCheckpointInvalid = azerr.New(azerr.InvalidQueryParameterValue, "since is not a valid checkpoint")
	// ErrChangesFilter means a change feed $filter compares more than PartitionKey and
	// RowKey; whether a deleted entity matched any other property is unknown.
	ErrChangesFilter = azerr.New(azerr.InvalidQueryParameterValue, "a change feed $filter may compare only PartitionKey and RowKey")
)

// queryChanges serves the change feed: GET /t()?comp=changes&since=…&$top=…&$filter=…,
// authorized as Query Entities and limited to a table SAS's key range like it.
func (c *call) queryChanges() {
	if err := c.negotiate(true); err != nil {
		c.fail(err)
		return
	}
	req, err := c.changesRequest()
	if err != nil {
		c.fail(err)
		return
	}
	if err := c.authorize(auth.QueryEntities, c.res.table); err != nil {
		c.fail(err)
		return
	}
	req.within = c.principal.KeyRange()
	err = c.acct.Store.View(func(tx *core.Tx) error { return req.read(tx, c.res.table) })
	if err != nil {
		c.fail(err)
		return
	}
	next := encodeCheckpoint(req.next)
	c.w.Header().Set(CheckpointHeader, next)
	c.w.Header().Set(MoreHeader, strconv.FormatBool(req.more))
	c.writeJSON(exchange.StatusOK, wire.AppendChanges(make([]byte, 0, 4096), req.out, next, req.more, c.wireContext(c.res.table)))
}

// changesRequest parses the change feed's query parameters.
func (c *call) changesRequest() (*changePage, error) {
	top, err := query.ParseTop(c.query.Get("$top"))
	if err != nil {
		return nil, err
	}
	f, err := query.ParseFilter(c.query.Get("$filter"))
	if err != nil {
		return nil, err
	}
	if !f.KeysOnly() {
		return nil, ErrChangesFilter
	}
	since, err := decodeCheckpoint(c.query.Get(sinceParam))
	if err != nil {
		return nil, err
	}
	if top == 0 {
		top = query.MaxTop
	}
	return &changePage{filter: f, limit: top, next: since}, nil
}

// changePage reads one page of a change feed: up to limit changes within a key range that
// match a keys-only filter, bounded by the query budget.
type changePage struct {
	filter *query.Filter
	limit  int
	within core.KeyRange

	out      []core.Change
	bytes    int
	examined int
	next     core.Checkpoint // the position the next page resumes after
	more     bool            // the page ended before the feed did
}

// read fills the page from the feed of table after p.next; a page that reaches the end
// of the feed resumes with the checkpoint of a reader caught up (see core.Tx.CaughtUp).
func (p *changePage) read(tx *core.Tx, table string) error {
	if err := tx.Changes(table, p.next, p.visit); err != nil || p.more {
		return err
	}
	var err error
	p.next, err = tx.CaughtUp(p.next)
	return err
}

// visit examines the next change of the feed and reports whether to go on. A full page
// stops at the next change it would include, so "more" is known; the next page resumes
// after the last change examined, included or not.
func (p *changePage) visit(ch core.Change) bool {
	p.examined++
	if p.within.Contains(ch.PartitionKey, ch.RowKey) && p.matches(ch) {
		if len(p.out) >= p.limit || p.bytes >= query.DefaultBudget.Bytes {
			p.more = true
			return false
		}
		p.out = append(p.out, ch)
		if ch.Entity != nil {
			p.bytes += ch.Entity.Size()
		}
	}
	p.next = ch.Checkpoint
	if p.examined >= query.DefaultBudget.Examined {
		p.more = true
		return false
	}
	return true
}

// matches applies the filter; a deletion is matched by its keys, all a keys-only filter reads.
func (p *changePage) matches(ch core.Change) bool {
	if ch.Entity != nil {
		return p.filter.Matches(ch.Entity)
	}
	return p.filter.Matches(&core.Entity{PartitionKey: ch.PartitionKey, RowKey: ch.RowKey})
}
