package rest

import (
	"strconv"
	"sync"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/query"
	"github.com/tabletopdb/tabletop/core/wire"
	"github.com/tabletopdb/tabletop/worker/rest/auth"
	"github.com/tabletopdb/tabletop/worker/rest/exchange"
)

// queryEntities serves Query Entities: GET /t() with $filter, $select, $top and the
// continuation NextPartitionKey and NextRowKey.
func (c *call) queryEntities() {
	q := c.query
	if err := c.negotiate(true); err != nil {
		c.fail(err)
		return
	}
	top, err := query.ParseTop(q.Get("$top"))
	if err != nil {
		c.fail(err)
		return
	}
	sel, err := query.ParseSelect(q.Get("$select"))
	if err != nil {
		c.fail(err)
		return
	}
	if err := c.authorize(auth.QueryEntities, c.res.table); err != nil {
		c.fail(err)
		return
	}
	req := query.Request{Filter: q.Get("$filter"), Top: top, NextPartitionKey: q.Get("NextPartitionKey"), NextRowKey: q.Get("NextRowKey"),
		Within: c.principal.KeyRange()}
	var page *query.RecordPage
	err = c.acct.Store.View(func(tx *core.Tx) (err error) {
		page, err = query.Records(tx, c.res.table, req)
		return err
	})
	if err != nil {
		c.fail(err)
		return
	}
	c.w.Header().Set(PlanHeader, page.Plan)
	if page.NextPartitionKey != "" || page.NextRowKey != "" {
		c.w.Header().Set("x-ms-continuation-NextPartitionKey", page.NextPartitionKey)
		c.w.Header().Set("x-ms-continuation-NextRowKey", page.NextRowKey)
	}
	ctx := c.wireContext(c.res.table)
	ctx.Select = sel
	buf := pageBuffers.Get().(*[]byte)
	body := wire.AppendRecords((*buf)[:0], page.Records, ctx)
	c.w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	c.writeJSON(exchange.StatusOK, body)
	if cap(body) <= maxPooledPage {
		*buf = body
		pageBuffers.Put(buf)
	}
}

// pageBuffers holds response buffers for pages, so a page is written without growing a
// new buffer each time: ResponseWriter.Write is done with the bytes when it returns.
var pageBuffers = sync.Pool{New: func() any { return new([]byte) }}

// maxPooledPage is the largest buffer kept for reuse; a rare huge page is left to the GC.
const maxPooledPage = 4 << 20
