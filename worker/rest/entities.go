package rest

import (
	"net/http"

	"github.com/tabletopdb/tabletop/core"
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
	sel, err := query.ParseSelect(c.r.URL.Query().Get("$select"))
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
	c.writeJSON(http.StatusOK, wire.AppendEntity(nil, e, ctx))
}

// insertEntity serves Insert Entity: POST /t with a JSON entity.
func (c *call) insertEntity() { c.writeEntity(http.MethodPost) }

// updateEntity serves Update Entity (PUT with If-Match) and Insert Or Replace Entity (PUT
// without).
func (c *call) updateEntity() { c.writeEntity(http.MethodPut) }

// mergeEntity serves Merge Entity (PATCH or MERGE with If-Match) and Insert Or Merge Entity
// (without).
func (c *call) mergeEntity() { c.writeEntity("MERGE") }

// deleteEntity serves Delete Entity: DELETE /t(PartitionKey='p',RowKey='r') with If-Match.
func (c *call) deleteEntity() { c.writeEntity(http.MethodDelete) }

// writeEntity serves one entity write: parse, authorize, apply, answer.
func (c *call) writeEntity(method string) {
	var body []byte
	var err error
	if method != http.MethodDelete {
		body, err = c.readJSON(c.h.maxEntity)
	}
	var w *write
	if err == nil {
		w, err = c.parseWrite(method, c.r.URL.Query().Get("$format"), c.res, c.r.Header, body)
	}
	if err == nil {
		c.meta, err = w.meta, w.formatErr
	}
	if err == nil {
		err = c.authorizeEntity(w.operation(), w.table, w.op.Entity.PartitionKey, w.op.Entity.RowKey)
	}
	var stored *core.Entity
	if err == nil {
		stored, err = c.acct.Store.Apply(c.res.table, w.op)
	}
	if err != nil {
		c.fail(err)
		return
	}
	status, h, out := c.answerWrite(w, stored)
	for k, v := range h {
		c.w.Header()[k] = v
	}
	c.writeRaw(status, out)
}
