package query

import (
	"slices"
	"time"
)

// checkEvery is how many examined items pass between two looks at the clock.
const checkEvery = 256

// pager collects one page of matching items from a scan in key order and decides where
// the next page resumes. It is given each item by pointer, which it need not keep (a scan
// may reuse it), and keeps copies of those it collects.
type pager[T any] struct {
	match    func(*T) bool
	size     func(*T) int
	limit    int
	budget   Budget
	deadline time.Time

	out      []T
	bytes    int
	examined int
	last     T    // the item the next page resumes after; set whenever more is
	filled   bool // the page is full: a further match ends it
	more     bool // the page ended before the scan did
}

// newPager returns a pager whose page goes into room (from its start) if room has any
// capacity, else into a new slice.
func newPager[T any](match func(*T) bool, size func(*T) int, limit int, b Budget, room []T) *pager[T] {
	b = b.withDefaults()
	if cap(room) == 0 {
		room = make([]T, 0, min(limit, 64))
	}
	return &pager[T]{
		match: match, size: size, limit: limit, budget: b, deadline: time.Now().Add(b.Duration),
		out: room[:0], filled: limit <= 0,
	}
}

// visit examines the next item of the scan and reports whether to go on. Once the page is
// full it keeps scanning (within the budget) to learn whether another match follows, and
// resumes after the last item before that match, so the next page does not re-read the
// items in between. It copies an item to last only where that can be needed: once the
// page is full, and when the budget ends the page.
func (p *pager[T]) visit(x *T) bool {
	p.examined++
	if p.match(x) {
		if p.filled {
			p.more = true
			return false
		}
		p.out = append(p.out, *x)
		p.bytes += p.size(x)
		p.filled = p.full()
	}
	if p.filled {
		p.last = *x
	}
	if p.exhausted() {
		p.last = *x
		p.more = true
		return false
	}
	return true
}

// reserve makes room for n more items in the page, at most its limit, so that a page of
// known candidates grows its slice once.
func (p *pager[T]) reserve(n int) {
	p.out = slices.Grow(p.out, min(n, p.limit))
}

func (p *pager[T]) full() bool { return len(p.out) >= p.limit || p.bytes >= p.budget.Bytes }

func (p *pager[T]) exhausted() bool {
	if p.examined >= p.budget.Examined {
		return true
	}
	return p.examined%checkEvery == 0 && time.Now().After(p.deadline)
}
