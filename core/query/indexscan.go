package query

import (
	"errors"
	"sort"
	"strings"
	"sync"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/stored"
)

// compareKeys orders records by (PartitionKey, RowKey).
func compareKeys(a, b stored.Record) int {
	if c := strings.Compare(a.PartitionKey, b.PartitionKey); c != 0 {
		return c
	}
	return strings.Compare(a.RowKey, b.RowKey)
}

// candidatePool holds the slices index reads collect candidates in, returned by
// releaseCandidates once a page has copied what it keeps: most of what an indexed query
// would otherwise allocate, which on a large heap costs its share of garbage collection.
var candidatePool = sync.Pool{New: func() any { return new([]stored.Record) }}

// maxPooledCandidates is the largest candidate slice kept for reuse.
const maxPooledCandidates = 4096

// releaseCandidates returns a candidate slice to the pool.
func releaseCandidates(recs []stored.Record) {
	if cap(recs) > 0 && cap(recs) <= maxPooledCandidates {
		clear(recs[:cap(recs)]) // drop the references to the store's memory
		recs = recs[:0]
		candidatePool.Put(&recs)
	}
}

// errTooMany stops an index read that finds more candidates than the plan may hold.
var errTooMany = errors.New("too many index candidates")

// candidates returns the entities the plan finds, as stored, sorted in key order and
// without repeats, or errTooMany once more than limit are found by one read or a union.
// An intersection leaves out a part with too many (the others still bound it) and fails
// only when all its parts have too many. The caller passes the result to
// releaseCandidates when done with it.
func (p *indexPlan) candidates(tx *core.Tx, table string, limit int) ([]stored.Record, error) {
	switch p.kind {
	case planNone:
		return nil, nil
	case planRead:
		return readIndex(tx, table, p, limit)
	case planUnion:
		var all []stored.Record
		for _, part := range p.parts {
			keys, err := part.candidates(tx, table, limit)
			if err != nil {
				return nil, err
			}
			all = append(all, keys...)
			releaseCandidates(keys)
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
func readIndex(tx *core.Tx, table string, p *indexPlan, limit int) ([]stored.Record, error) {
	keys := (*candidatePool.Get().(*[]stored.Record))[:0]
	err := tx.ScanIndex(table, p.prop, p.r, func(rec *stored.Record) bool {
		keys = append(keys, *rec)
		return len(keys) <= limit
	})
	if err != nil || len(keys) > limit {
		releaseCandidates(keys)
		return nil, orTooMany(err)
	}
	return sortKeys(keys), nil
}

// probeLimit is how many candidates an intersection first lets each part find.
const probeLimit = 1024

// intersectParts returns the candidates every part with few enough of them finds. The
// smallest part is found first, without reading a large one to its end: each part is
// read up to probeLimit candidates, then eight times as many, and so on up to limit;
// the first part to finish is the base, and each other part is read only up to the
// base's size (a larger part would narrow the base less than testing the base with the
// whole filter costs) and intersected with it.
func intersectParts(tx *core.Tx, table string, parts []*indexPlan, limit int) ([]stored.Record, error) {
	for probe := min(probeLimit, limit); ; probe = min(probe*8, limit) {
		for i, part := range parts {
			base, err := part.candidates(tx, table, probe)
			if errors.Is(err, errTooMany) {
				continue
			}
			if err != nil {
				return nil, err
			}
			return narrow(tx, table, base, parts, i)
		}
		if probe >= limit {
			return nil, errTooMany
		}
	}
}

// narrow keeps the candidates of base that every part but parts[skip] finds too, reading
// each such part only up to len(base) candidates.
func narrow(tx *core.Tx, table string, base []stored.Record, parts []*indexPlan, skip int) ([]stored.Record, error) {
	for j, part := range parts {
		if j == skip || len(base) == 0 {
			continue
		}
		keys, err := part.candidates(tx, table, len(base))
		if errors.Is(err, errTooMany) {
			continue
		}
		if err != nil {
			releaseCandidates(base)
			return nil, err
		}
		base = keepFound(base, keys)
		releaseCandidates(keys)
	}
	return base, nil
}

// orTooMany returns err, or errTooMany when there is none.
func orTooMany(err error) error {
	if err != nil {
		return err
	}
	return errTooMany
}

// keepFound keeps the records of base whose key is in keys (sorted by sortKeys), in
// place, and clears the tail it frees.
func keepFound(base, keys []stored.Record) []stored.Record {
	out := base[:0]
	for _, k := range base {
		i := sort.Search(len(keys), func(i int) bool { return compareKeys(keys[i], k) >= 0 })
		if i < len(keys) && compareKeys(keys[i], k) == 0 {
			out = append(out, k)
		}
	}
	clear(base[len(out):])
	return out
}

// sortKeys sorts records in key order and drops repeats.
func sortKeys(keys []stored.Record) []stored.Record {
	heapSort(len(keys), func(i, j int) bool { return compareKeys(keys[i], keys[j]) < 0 }, func(i, j int) { keys[i], keys[j] = keys[j], keys[i] })
	out := keys[:0]
	for _, k := range keys {
		if n := len(out); n > 0 && compareKeys(out[n-1], k) == 0 {
			continue
		}
		out = append(out, k)
	}
	clear(keys[len(out):])
	return out
}

// visitCandidates gives the pager each candidate inside ranges (the query's key ranges,
// its Within and its continuation), in key order, until it stops.
func visitCandidates(recs []stored.Record, ranges []stored.KeyRange, p *pager[stored.Record]) {
	for i := range recs {
		if candidateIn(ranges, &recs[i]) && !p.visit(&recs[i]) {
			return
		}
	}
}

func candidateIn(ranges []stored.KeyRange, r *stored.Record) bool {
	for _, kr := range ranges {
		if kr.Contains(r.PartitionKey, r.RowKey) {
			return true
		}
	}
	return false
}
