package query

import (
	"errors"
	"slices"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/stored"
)

// The plans a page may run, as RecordPage.Plan names them; an index plan is named by
// its reads, such as "index(Price) eq" or "index(Price) range and index(Color) eq".
const (
	PlanEmpty         = "empty"          // the filter can match nothing in range: nothing is read
	PlanPartitionScan = "partition scan" // the filter fixes one partition: only it is read
	PlanKeyRangeScan  = "key range scan" // key comparisons bound the ranges read
	PlanTableScan     = "table scan"     // every entity of the table is read
)

// overLimit is added to the scan's name when an index plan found too many candidates,
// such as "table scan (index over limit: index(Active) eq)".
const overLimit = " (index over limit: "

// run reads the entities of ranges (in key order, continuation and Within applied) into
// the pager and returns the name of the plan it ran. When the filter does not fix one
// partition and indexed comparisons bound it (see indexPlanFor), it reads the indexes
// instead of the table: their candidates, at most the budget's Examined, are sorted into
// key order, those outside ranges dropped, and each tested with the whole filter (an
// index holds the stored entities: no second lookup). An index read finding more falls back to the scan; so every page costs
// at most Examined index entries plus one sort of them, and results and continuations
// are those of the scan.
func (f *Filter) run(tx *core.Tx, table string, ranges []stored.KeyRange, p *pager[stored.Record]) (string, error) {
	if len(ranges) == 0 {
		return PlanEmpty, nil
	}
	name := scanName(f, ranges)
	plan, err := f.indexPlan(tx, table, name)
	if err != nil {
		return "", err
	}
	if plan != nil {
		keys, err := plan.candidates(tx, table, p.budget.Examined)
		if err == nil {
			p.reserve(len(keys))
			visitCandidates(keys, ranges, p)
			releaseCandidates(keys) // the pager keeps copies
			return plan.String(), nil
		}
		if !errors.Is(err, errTooMany) {
			return "", err
		}
		name += overLimit + plan.String() + ")"
	}
	for _, r := range ranges {
		if err := tx.ScanRecordsUnsplit(table, r, p.visit); err != nil {
			return "", err
		}
		if p.more {
			break
		}
	}
	return name, nil
}

// indexPlan returns the index plan of the filter on table, or nil when there is none or
// the key ranges already fix one partition. It reads the table's index declarations
// (which a partial store may have to load first: ErrNeedRange).
func (f *Filter) indexPlan(tx *core.Tx, table, scan string) (*indexPlan, error) {
	if f == nil || scan == PlanPartitionScan {
		return nil, nil
	}
	props, err := tx.Indexes(table)
	if err != nil || len(props) == 0 {
		return nil, err
	}
	return indexPlanFor(f.root, false, func(prop string) bool { return slices.Contains(props, prop) }), nil
}

// scanName names the scan of ranges.
func scanName(f *Filter, ranges []stored.KeyRange) string {
	if f != nil {
		if _, ok := fixedPartition(f.root, false); ok {
			return PlanPartitionScan
		}
	}
	if len(ranges) == 1 && ranges[0] == stored.WholeTable {
		return PlanTableScan
	}
	return PlanKeyRangeScan
}
