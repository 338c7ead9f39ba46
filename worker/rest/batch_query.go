package rest

import (
	"github.com/tabletopdb/tabletop/worker/rest/exchange"

	"github.com/tabletopdb/tabletop/core/wire"
	"github.com/tabletopdb/tabletop/worker/rest/auth"
	"github.com/tabletopdb/tabletop/worker/rest/batch"
)

// batchQuery serves a batch that holds a single query, as Azure allows: a Get Entity
// (GET /t(PartitionKey='p',RowKey='r')), answered 202 with one part holding the entity
// or the error, outside any changeset.
func (c *call) batchQuery(s batch.SubRequest) {
	status, h, body := c.batchGet(s)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cache-Control", "no-cache")
	bb, _ := batch.NewBoundaries()
	c.w.Header().Set("Content-Type", batch.ContentType(bb))
	c.w.WriteHeader(exchange.StatusAccepted)
	batch.WriteQueryResponse(c.w, bb, batch.Response{Status: status, Header: h, Body: body})
}

// batchGet runs the Get Entity of a query batch and returns its answer.
func (c *call) batchGet(s batch.SubRequest) (int, exchange.Header, []byte) {
	q, err := parseQuery(s.URL.RawQuery)
	meta, ok := wire.ParseFormat(formatOf(s.Header, q.Get("$format")))
	c.meta = meta
	var res resource
	if err == nil {
		res, err = c.subResource(s)
	}
	if err == nil && res.kind != kindEntity {
		err = errBatchQuery
	}
	if err == nil && !ok {
		err = ErrAtomNotSupported
	}
	if err == nil {
		err = c.authorizeEntity(auth.QueryEntities, res.table, res.partitionKey, res.rowKey)
	}
	h := exchange.Header{}
	h.Set("Content-Type", meta.ContentType())
	if err != nil {
		a := c.answerOf(err)
		return a.Status, h, appendErrorJSON(nil, a, c.errorMessage(a, ""))
	}
	e, err := c.acct.Store.Get(res.table, res.partitionKey, res.rowKey)
	if err != nil {
		a := c.answerOf(err)
		return a.Status, h, appendErrorJSON(nil, a, c.errorMessage(a, ""))
	}
	h.Set("DataServiceVersion", "3.0;")
	h.Set("ETag", e.ETag())
	return exchange.StatusOK, h, wire.AppendEntity(nil, e, c.wireContext(res.table))
}
