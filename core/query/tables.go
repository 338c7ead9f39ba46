package query

import "github.com/tabletopdb/tabletop/core"

// TablesRequest is one page request of Query Tables.
type TablesRequest struct {
	Filter        string // the raw $filter, on TableName; "" matches all
	Top           int    // $top, from 1 to MaxTop; 0 means no $top; ZeroTop none
	NextTableName string // the continuation token as received; "" starts the query
	Budget        Budget // zero fields take DefaultBudget's
}

// TablesPage is one page of Query Tables, in order of lowercase table name.
type TablesPage struct {
	Tables        []*core.Table
	NextTableName string // the continuation token to send back; "" when complete
	Examined      int    // tables read to make the page
}

// Tables runs one page of Query Tables inside tx. The filter compares TableName, the name
// as created, ordinally (case-sensitively); any other property is missing, so comparisons
// on it are false. Tables are listed in the store's order, by lowercase name, and every
// table is read and tested: accounts hold few tables, so no range is planned.
func Tables(tx *core.Tx, req TablesRequest) (*TablesPage, error) {
	f, err := ParseFilter(req.Filter)
	if err != nil {
		return nil, err
	}
	limit, err := pageSize(req.Top)
	if err != nil {
		return nil, err
	}
	after, _, err := DecodeTableToken(req.NextTableName)
	if err != nil || limit == 0 {
		return &TablesPage{}, err
	}
	p := newPager(f.MatchesTable, func(*core.Table) int { return 0 }, limit, req.Budget, nil)
	if err := tx.Tables(after, p.visit); err != nil {
		return nil, err
	}
	page := &TablesPage{Tables: make([]*core.Table, len(p.out)), Examined: p.examined}
	for i := range p.out {
		page.Tables[i] = &p.out[i]
	}
	if p.more {
		page.NextTableName = EncodeTableToken(p.last.Name)
	}
	return page, nil
}
