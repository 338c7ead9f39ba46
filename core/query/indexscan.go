package query

import (
	"errors"
	"slices"
	"strings"

	"github.com/tabletopdb/tabletop/core"
)

// entityKey is an entity's (PartitionKey, RowKey).
type entityKey struct{ pk, rk string }

func compareKeys(a, b entityKey) int {
	if c := strings.Compare(a.pk, b.pk); c != 0 {
		return c
	}
	return strings.Compare(a.rk, b.rk)
}

// errTooMany stops an index read that finds more candidates than the plan may hold.
var errTooMany = errors.New("too many index candidates")

// candidates returns the keys of the entities the plan finds, sorted in key order and
// without repeats, or errTooMany once more than limit are found by one read or a union.
// An intersection leaves out a part with too many (the others still bound it) and fails
// only when all its parts have too many.
func (p *indexPlan) candidates(tx *core.Tx, table string, limit int) ([]entityKey, error) {
	switch p.kind {
	case planNone:
		return nil, nil
	case planRead:
		return readIndex(tx, table, p, limit)
	case planUnion:
		var all []entityKey
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

// readIndex returns the keys of one index read, in key order.
func readIndex(tx *core.Tx, table string, p *indexPlan, limit int) ([]entityKey, error) {
	var keys []entityKey
	err := tx.ScanIndex(table, p.prop, p.r, func(pk, rk string) bool {
		keys = append(keys, entityKey{pk, rk})
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
func intersectParts(tx *core.Tx, table string, parts []*indexPlan, limit int) ([]entityKey, error) {
	var out []entityKey
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
		out = slices.DeleteFunc(out, func(k entityKey) bool {
			_, ok := slices.BinarySearchFunc(keys, k, compareKeys)
			return !ok
		})
	}
	if !found {
		return nil, errTooMany
	}
	return out, nil
}

// sortKeys sorts keys in key order and drops repeats.
func sortKeys(keys []entityKey) []entityKey {
	slices.SortFunc(keys, compareKeys)
	return slices.Compact(keys)
}

// visitCandidates gives the pager the stored record of each candidate inside r (the
// query's key ranges, its Within and its continuation), in key order, until it stops.
func visitCandidates(tx *core.Tx, table string, keys []entityKey, ranges []core.KeyRange, p *pager[core.Record]) error {
	for _, k := range keys {
		if !candidateIn(ranges, k) {
			continue
		}
		rec, ok, err := tx.GetRecord(table, k.pk, k.rk)
		if err != nil {
			return err
		}
		if ok && !p.visit(&rec) {
			return nil
		}
	}
	return nil
}

func candidateIn(ranges []core.KeyRange, k entityKey) bool {
	for _, r := range ranges {
		if r.Contains(k.pk, k.rk) {
			return true
		}
	}
	return false
}
