package query

import (
	"fmt"
	"time"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/core/stored"
)

// MaxTop is the largest $top, and the size of a page when there is no $top.
const MaxTop = model.MaxPageSize

// Request is one page request of Query Entities.
type Request struct {
	Filter string // the raw $filter; "" matches all
	Top    int    // $top, from 1 to MaxTop; 0 means no $top (pages of MaxTop); ZeroTop none
	// NextPartitionKey and NextRowKey are the continuation tokens as received; both ""
	// start the query.
	NextPartitionKey, NextRowKey string
	Budget                       Budget // zero fields take DefaultBudget's
	// Within limits the query to a key range, such as a table SAS's; the zero KeyRange
	// means the whole table.
	Within stored.KeyRange
	// Room, for Records, is where the page's records go (from its start) when it has room
	// for them: a caller done with the last page's records hands its slice back, so that
	// a page of a thousand records grows and scans no new slice of them each time.
	Room []stored.Record
}

// Page is one page of results, in key order.
type Page struct {
	Entities []*model.Entity
	// NextPartitionKey and NextRowKey are the continuation tokens to send back; both ""
	// when the query is complete.
	NextPartitionKey, NextRowKey string
	Examined                     int    // entities read to make the page, matching or not
	Plan                         string // how the entities were found (see RecordPage.Plan)
}

// Budget bounds the work of one page. A page ends early, with a continuation, once it has
// examined Examined entities, holds Bytes of entities (by Azure's size formula, at least
// one entity), or has run for Duration, whichever comes first; it may then hold fewer
// than $top entities or none. Zero fields take DefaultBudget's values.
type Budget struct {
	Examined int
	Bytes    int
	Duration time.Duration
}

// DefaultBudget is the budget of a page whose Request leaves it zero. Azure's own limit is
// five seconds of work per page; this one is tighter, so the edge and the browser stay
// responsive: about 0.1–0.3 s of scanning natively.
var DefaultBudget = Budget{Examined: 100_000, Bytes: 4 << 20, Duration: 500 * time.Millisecond}

func (b Budget) withDefaults() Budget {
	if b.Examined <= 0 {
		b.Examined = DefaultBudget.Examined
	}
	if b.Bytes <= 0 {
		b.Bytes = DefaultBudget.Bytes
	}
	if b.Duration <= 0 {
		b.Duration = DefaultBudget.Duration
	}
	return b
}

// ZeroTop is the Top of a request sent with $top=0. Azure answers it with 200 and no
// entities (Azure Storage Explorer sends it); so does this package, after the checks every
// query makes (filter, continuation, table), and with no continuation.
const ZeroTop = -1

// ParseTop parses the text of a $top: "" gives 0 (no $top), a zero gives ZeroTop;
// otherwise a decimal integer up to MaxTop, else ErrTopInvalid. Azure answers a $top above
// 1000 with 400, and so does this package, rather than clamping it.
func ParseTop(s string) (int, error) {
	if s == "" {
		return 0, nil
	}
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' || i >= 4 {
			return 0, fmt.Errorf("parse $top %q: %w", s, ErrTopInvalid)
		}
		n = n*10 + int(s[i]-'0')
	}
	if n > MaxTop {
		return 0, fmt.Errorf("parse $top %q: %w", s, ErrTopInvalid)
	}
	if n == 0 {
		return ZeroTop, nil
	}
	return n, nil
}

// pageSize returns the most entities a page of a request with this Top may hold.
func pageSize(top int) (int, error) {
	switch {
	case top == 0:
		return MaxTop, nil
	case top == ZeroTop:
		return 0, nil
	case top < 0 || top > MaxTop:
		return 0, fmt.Errorf("$top %d: %w", top, ErrTopInvalid)
	}
	return top, nil
}

// RecordPage is one page of results as stored records, in key order: what a host encodes
// straight into a response (see wire.AppendRecords).
type RecordPage struct {
	Records []stored.Record
	// NextPartitionKey and NextRowKey are the continuation tokens to send back; both ""
	// when the query is complete.
	NextPartitionKey, NextRowKey string
	Examined                     int    // entities read to make the page, matching or not
	Plan                         string // how the entities were found (see Filter.run)
}

// Entities runs one page of a query on a table inside tx, as Records does, and decodes
// the entities of the page.
func Entities(tx *core.Tx, table string, req Request) (*Page, error) {
	rp, err := Records(tx, table, req)
	if err != nil {
		return nil, err
	}
	page := &Page{Entities: make([]*model.Entity, len(rp.Records)), Examined: rp.Examined, Plan: rp.Plan,
		NextPartitionKey: rp.NextPartitionKey, NextRowKey: rp.NextRowKey}
	for i := range rp.Records {
		if page.Entities[i], err = rp.Records[i].Entity(); err != nil {
			return nil, fmt.Errorf("decode entity: %w", err)
		}
	}
	return page, nil
}

// Records runs one page of a query on a table inside tx: the entities that match the
// filter, in (PartitionKey, RowKey) order, read only from the key ranges the filter
// bounds (see Filter.Ranges), resuming after the continuation if one is given. The filter
// is evaluated on each stored record in place (Filter.MatchesRecord); only the records of
// the page are checked in full, and none is decoded.
func Records(tx *core.Tx, table string, req Request) (*RecordPage, error) {
	f, err := ParseFilter(req.Filter)
	if err != nil {
		return nil, err
	}
	limit, err := pageSize(req.Top)
	if err != nil {
		return nil, err
	}
	pk, rk, resume, err := DecodeContinuation(req.NextPartitionKey, req.NextRowKey)
	if err != nil {
		return nil, err
	}
	if _, err := tx.Table(table); err != nil || limit == 0 {
		return &RecordPage{Plan: PlanEmpty}, err
	}
	within := req.Within
	if within == (stored.KeyRange{}) {
		within = stored.WholeTable
	}
	// The page's records are measured for the budget and checked whole in one pass; the
	// scan reuses the *Record it gives, so the first one not whole is kept by value. The
	// scan leaves the keys of the records it gives unsplit (core.Tx.ScanRecordsUnsplit):
	// those of the page and of the last record read are split here, and no others.
	var corrupt stored.Record
	var corruptErr error
	measure := func(r *stored.Record) int {
		r.SplitKeys()
		n, err := r.Measure()
		if err != nil && corruptErr == nil {
			corrupt, corruptErr = *r, err
		}
		return n
	}
	p := newPager(f.recordMatcher(), measure, limit, req.Budget, req.Room)
	var ranges []stored.KeyRange
	for _, r := range f.Ranges() {
		r = r.Intersect(within)
		if resume {
			r = r.After(pk, rk)
		}
		if !r.Empty() {
			ranges = append(ranges, r)
		}
	}
	plan, err := f.run(tx, table, ranges, p)
	if err != nil {
		return nil, err
	}
	if corruptErr != nil {
		return nil, fmt.Errorf("read entity (%q, %q): %w", corrupt.PartitionKey, corrupt.RowKey, corruptErr)
	}
	for i := range p.out {
		p.out[i].SplitKeys()
	}
	page := &RecordPage{Records: p.out, Examined: p.examined, Plan: plan}
	if p.more {
		p.last.SplitKeys()
		page.NextPartitionKey, page.NextRowKey = EncodeContinuation(p.last.PartitionKey, p.last.RowKey)
	}
	return page, nil
}
