package rest

import (
	"strconv"
	"time"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/azerr"
	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/core/query"
	"github.com/tabletopdb/tabletop/core/stored"
	"github.com/tabletopdb/tabletop/core/wire"
	"github.com/tabletopdb/tabletop/worker/rest/auth"
	"github.com/tabletopdb/tabletop/worker/rest/exchange"
)

// The change feed extension (worker/rest/README.md, "Sync protocol"): GET /{table}()?comp=changes,
// which no Azure client sends, answers a page of the table's changes after a checkpoint.
const (
	// compChanges is the comp value of the change feed.
	compChanges = "changes"
	// sinceParam is the query parameter holding the checkpoint to resume after; absent or
	// empty starts the feed.
	sinceParam = "since"
	// waitParam is the query parameter holding how many seconds a page with no change
	// may wait for one before it is answered (a long-poll); absent or 0 answers at once.
	// The wait is cut to the handler's MaxWait, which the answer states (WaitMember).
	waitParam = "wait"
	// CheckpointHeader is the response header holding the checkpoint to send as since
	// for the next page; the body's tabletop.checkpoint holds it too, for browsers whose
	// CORS rule does not expose the header.
	CheckpointHeader = "x-tabletop-checkpoint"
	// MoreHeader is the response header saying whether more changes may follow ("true")
	// or the feed was read to its end ("false").
	MoreHeader = "x-tabletop-more"
	// HoldHeader, with Options.HostWaits, asks the host to hold the answer, an empty page,
	// up to this many seconds for a write to the store, then to serve the request again;
	// the host removes it from the answer it sends.
	HoldHeader = "x-tabletop-hold"
)

// Errors of the change feed.
var (
	// ErrCheckpointInvalid means since is not a checkpoint this server wrote.
	ErrCheckpointInvalid = azerr.New(azerr.InvalidQueryParameterValue, "since is not a valid checkpoint")
	// ErrChangesFilter means a change feed $filter compares more than PartitionKey and
	// RowKey; whether a deleted entity matched any other property is unknown.
	ErrChangesFilter = azerr.New(azerr.InvalidQueryParameterValue, "a change feed $filter may compare only PartitionKey and RowKey")
	// ErrWaitInvalid means wait is not a whole number of seconds, 0 or more.
	ErrWaitInvalid = azerr.New(azerr.InvalidQueryParameterValue, "wait is not a whole number of seconds")
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
	if err := c.readChanges(req); err != nil {
		c.fail(err)
		return
	}
	next := encodeCheckpoint(req.next)
	c.w.Header().Set(CheckpointHeader, next)
	c.w.Header().Set(MoreHeader, strconv.FormatBool(req.more))
	page := wire.ChangePage{Changes: req.out, Checkpoint: next, More: req.more, Wait: int(req.wait / time.Second)}
	if !req.waitAsked {
		page.Wait = -1
	}
	c.writeJSON(exchange.StatusOK, wire.AppendChanges(make([]byte, 0, 4096), page, c.wireContext(c.res.table)))
}

// readChanges fills the page; a page with no change, asked to wait, waits for a write to
// the store and reads again, until one brings a change or the wait is over (or, with
// HostWaits, asks the host to, with HoldHeader).
func (c *call) readChanges(req *changePage) error {
	store := c.acct.Store
	deadline := time.Now().Add(req.wait)
	for {
		var changed <-chan struct{}
		if req.wait > 0 && !c.h.hostWaits {
			changed = store.Changed() // before the read: no write falls between the two
		}
		if err := store.View(func(tx *core.Tx) error { return req.read(tx, c.res.table) }); err != nil {
			return err
		}
		if len(req.out) > 0 || req.more || req.wait <= 0 {
			return nil
		}
		if c.h.hostWaits {
			c.w.Header().Set(HoldHeader, strconv.Itoa(int(req.wait/time.Second)))
			return nil
		}
		if !c.waitFor(changed, time.Until(deadline)) {
			return nil
		}
	}
}

// waitFor waits for changed to close, for up to d, until the handler stops waits and
// while the client is there (exchange.Request.Gone); it reports whether changed closed.
func (c *call) waitFor(changed <-chan struct{}, d time.Duration) bool {
	if d <= 0 {
		return false
	}
	var gone <-chan struct{}
	if c.r.Gone != nil {
		gone = c.r.Gone() // a subscriber that went frees its wait
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-changed:
		return true
	case <-t.C:
	case <-c.h.stopped():
	case <-gone:
	}
	return false
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
	p := &changePage{filter: f, limit: top, next: since}
	if p.wait, p.waitAsked, err = c.waitOf(); err != nil {
		return nil, err
	}
	return p, nil
}

// waitOf parses the wait parameter, cut to the handler's MaxWait, and reports whether
// the request has one.
func (c *call) waitOf() (time.Duration, bool, error) {
	text, ok := c.query[waitParam]
	if !ok {
		return 0, false, nil
	}
	n, err := strconv.ParseUint(text[0], 10, 32)
	if err != nil {
		return 0, true, ErrWaitInvalid
	}
	return min(time.Duration(n)*time.Second, c.h.maxWait), true, nil
}

// changePage reads one page of a change feed: up to limit changes within a key range that
// match a keys-only filter, bounded by the query budget.
type changePage struct {
	filter    *query.Filter
	limit     int
	within    stored.KeyRange
	wait      time.Duration // how long an empty page may wait for a change
	waitAsked bool          // the request has a wait parameter

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
	return p.filter.Matches(&model.Entity{PartitionKey: ch.PartitionKey, RowKey: ch.RowKey})
}
