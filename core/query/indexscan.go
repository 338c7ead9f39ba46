package query

import (
	"errors"
	"slices"
	"strings"

	"github.com/tabletopdb/tabletop/core"
)

// compareKeys orders records by (PartitionKey, RowKey).
func compareKeys(a, b core.Record) int {
	if c := strings.Compare(a.PartitionKey, b.PartitionKey); c != 0 {
		return c
	}
	return strings.Compare(a.RowKey, b.RowKey)
}

// errTooMany stops an index read that finds more candidates than the plan may hold.
var errTooMany = errors.New("too many index candidates")

// candidates returns the entities the plan finds, as stored, sorted in key order and
// without repeats, or errTooMany once more than limit are found by one read or a union.
// An intersection leaves out a part with too many (the others still bound it) and fails
// only when all its parts have too many.
func (p *indexPlan) candidates(tx *core.Tx, table string, limit int) ([]core.Record, error) {
	switch p.kind {
	case planNone:
		return nil, nil
	case planRead:
		return readIndex(tx, table, p, limit)
	case planUnion:
		var all []core.Record
		for _, part := range p.parts {
			keys, err := part.candidates(tx, table, limit)
			if err != nil {
				return nil, err
			}
			all = append(all, keys...)
		}
		all = sortKeys(all)
		if len(all) > limit {
			return nil, errTooMany
		}
		return all, nil
	}
	return intersectParts(tx, table, p.parts, limit)
}

// readIndex returns the entities of one index read, in key order.
func readIndex(tx *core.Tx, table string, p *indexPlan, limit int) ([]core.Record, error) {
	var keys []core.Record
	err := tx.ScanIndex(table, p.prop, p.r, func(rec *core.Record) bool {
		keys = append(keys, *rec)
		return len(keys) <= limit
	})
	if err != nil {
		return nil, err
	}
	if len(keys) > limit {
		return nil, errTooMany
	}
	return sortKeys(keys), nil
}

// intersectParts returns the keys every part with few enough candidates finds.
func intersectParts(tx *core.Tx, table string, parts []*indexPlan, limit int) ([]core.Record, error) {
	var out []core.Record
	found := false
	for _, part := range parts {
		keys, err := part.candidates(tx, table, limit)
		if errors.Is(err, errTooMany) {
			continue
		}
		if err != nil {
			return nil, err
		}
		if !found {
			out, found = keys, true
			continue
		}
		out = slices.DeleteFunc(out, func(k core.Record) bool {
			_, ok := slices.BinarySearchFunc(keys, k, compareKeys)
			return !ok
		})
	}
	if !found {
		return nil, errTooMany
	}
	return out, nil
}

// sortKeys sorts records in key order and drops repeats.
func sortKeys(keys []core.Record) []core.Record {
	slices.SortFunc(keys, compareKeys)
	return slices.CompactFunc(keys, func(a, b core.Record) bool { return compareKeys(a, b) == 0 })
}

// visitCandidates gives the pager each candidate inside ranges (the query's key ranges,
// its Within and its continuation), in key order, until it stops.
func visitCandidates(recs []core.Record, ranges []core.KeyRange, p *pager[core.Record]) {
	for i := range recs {
		if candidateIn(ranges, &recs[i]) && !p.visit(&recs[i]) {
			return
		}
	}
}

func candidateIn(ranges []core.KeyRange, r *core.Record) bool {
	for _, kr := range ranges {
		if kr.Contains(r.PartitionKey, r.RowKey) {
			return true
		}
	}
	return false
}
