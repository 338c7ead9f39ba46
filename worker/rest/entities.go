package rest

import (
	"github.com/tabletopdb/tabletop/worker/rest/exchange"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/core/query"
	"github.com/tabletopdb/tabletop/core/wire"
	"github.com/tabletopdb/tabletop/worker/rest/auth"
)

// getEntity serves Get Entity: GET /t(PartitionKey='p',RowKey='r') with optional $select.
func (c *call) getEntity() {
	if err := c.negotiate(true); err != nil {
		c.fail(err)
		return
	}
	sel, err := query.ParseSelect(c.query.Get("$select"))
	if err != nil {
		c.fail(err)
		return
	}
	if err := c.authorizeEntity(auth.QueryEntities, c.res.table, c.res.partitionKey, c.res.rowKey); err != nil {
		c.fail(err)
		return
	}
	e, err := c.acct.Store.Get(c.res.table, c.res.partitionKey, c.res.rowKey)
	if err != nil {
		c.fail(err)
		return
	}
	ctx := c.wireContext(c.res.table)
	ctx.Select = sel
	c.w.Header().Set("ETag", e.ETag())
	c.writeJSON(exchange.StatusOK, wire.AppendEntity(nil, e, ctx))
}

// writeEntity serves the entity writes: Insert Entity (POST /t), Update Entity and Insert
// Or Replace Entity (PUT /t(…) with and without If-Match), Merge Entity and Insert Or
// Merge Entity (PATCH or MERGE, with and without If-Match) and Delete Entity (DELETE).
// It parses, authorizes, applies and answers.
func (c *call) writeEntity() {
	kind := writeKind(c.method)
	var body []byte
	var err error
	if kind != core.OpDelete {
		body, err = c.readJSON(c.h.maxEntity)
	}
	var w write // on the stack: a single write needs no allocation of its own
	if err == nil {
		err = c.parseWrite(&w, kind, c.query.Get("$format"), c.res, c.r.Header, body)
	}
	if err == nil {
		c.meta, err = w.meta, w.formatErr
	}
	if err == nil {
		err = c.authorizeEntity(w.operation(), w.table, w.op.Entity.PartitionKey, w.op.Entity.RowKey)
	}
	var stored *model.Entity
	if err == nil {
		stored, err = c.acct.Store.Apply(c.res.table, w.op)
	}
	if err != nil {
		c.fail(err)
		return
	}
	status, out := c.answerWrite(c.w.Header(), (*[5]string)(c.values[5:]), &w, stored)
	c.writeRaw(status, out)
}
