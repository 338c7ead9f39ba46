package query

import (
	"strings"

	"github.com/tabletopdb/tabletop/core/stored"
)

// indexPlan is a way to find a superset of the entities a filter matches by reading
// secondary indexes: the union or intersection of index reads.
type indexPlan struct {
	kind  planKind
	prop  string            // planRead: the indexed property
	r     stored.IndexRange // planRead: the values read
	op    Op                // planRead: the comparison, for the description
	parts []*indexPlan      // planUnion, planIntersect
}

type planKind uint8

const (
	planRead      planKind = iota + 1 // the entries of one index within a range
	planUnion                         // the candidates of any part
	planIntersect                     // the candidates of every part
	planNone                          // no entity: a false filter
)

// indexPlanFor returns the index plan of a filter on a table whose indexed properties
// has reports, or nil when the filter can hold for entities no index read finds. The
// comparisons eq, gt, ge, lt and le of an indexed property are reads; "and" intersects
// (either side alone when the other has no plan), "or" unites (only when both sides
// have one). A negated comparison has no plan: "not (Price eq 5)" holds for every entity
// without a Price, which no index holds.
func indexPlanFor(n node, neg bool, has func(prop string) bool) *indexPlan {
	switch n := n.(type) {
	case *notNode:
		return indexPlanFor(n.x, !neg, has)
	case *logicNode:
		l, r := indexPlanFor(n.l, neg, has), indexPlanFor(n.r, neg, has)
		if n.and != neg { // a conjunction
			return conjoin(l, r)
		}
		if l == nil || r == nil {
			return nil
		}
		return &indexPlan{kind: planUnion, parts: []*indexPlan{l, r}}
	case *cmpNode:
		if neg || !has(n.prop) {
			return nil
		}
		return indexRead(n)
	case constNode:
		if bool(n) == neg { // false, or "not true"
			return &indexPlan{kind: planNone}
		}
	}
	return nil
}

// conjoin returns the plan of "l and r".
func conjoin(l, r *indexPlan) *indexPlan {
	switch {
	case l == nil:
		return r
	case r == nil:
		return l
	case l.kind == planNone:
		return l
	case r.kind == planNone:
		return r
	}
	return &indexPlan{kind: planIntersect, parts: []*indexPlan{l, r}}
}

// indexRead returns the read of one comparison, or nil for an operator an index does
// not serve (ne) or a constant it cannot look up.
func indexRead(n *cmpNode) *indexPlan {
	if !stored.Indexable(n.lit) {
		return nil
	}
	p := &indexPlan{kind: planRead, prop: n.prop, op: n.op}
	switch n.op {
	case OpEq:
		p.r = stored.IndexEq(n.lit)
	case OpGt, OpGe:
		p.r = stored.IndexAbove(n.lit, n.op == OpGe)
	case OpLt, OpLe:
		p.r = stored.IndexBelow(n.lit, n.op == OpLe)
	default:
		return nil
	}
	return p
}

// String describes the plan, such as "index(Price) eq" or
// "index(Price) range and index(Color) eq".
func (p *indexPlan) String() string {
	var b strings.Builder
	p.write(&b, false)
	return b.String()
}

func (p *indexPlan) write(b *strings.Builder, nested bool) {
	switch p.kind {
	case planNone:
		b.WriteString("empty")
		return
	case planRead:
		b.WriteString("index(" + p.prop + ")")
		if p.op == OpEq {
			b.WriteString(" eq")
		} else {
			b.WriteString(" range")
		}
		return
	}
	if nested {
		b.WriteByte('(')
	}
	for i, part := range p.parts {
		if i > 0 && p.kind == planUnion {
			b.WriteString(" or ")
		} else if i > 0 {
			b.WriteString(" and ")
		}
		part.write(b, true)
	}
	if nested {
		b.WriteByte(')')
	}
}
