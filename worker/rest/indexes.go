package rest

import (
	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/azerr"
	"github.com/tabletopdb/tabletop/worker/rest/auth"
	"github.com/tabletopdb/tabletop/worker/rest/exchange"
)

// The secondary index extension (worker/rest/README.md, "Secondary indexes"), on the table's own
// path so every host routes it to the table, as it routes Query Entities:
//
//	GET    /{table}?comp=indexes                    the indexed properties: {"value":[{"Property":"Price"}]}
//	PUT    /{table}?comp=indexes&property={prop}    declare an index and build it: 204 (also when it exists)
//	DELETE /{table}?comp=indexes&property={prop}    drop it: 204, or 404 ResourceNotFound
//
// Declaring and dropping are authorized as Create Table and Delete Table (Shared Key, or
// an account SAS for containers with c or d); listing as Query Entities (a table SAS with
// r too). Azure has no such operation; its clients never send comp=indexes.
const (
	// compIndexes is the comp value of the index extension.
	compIndexes = "indexes"
	// propertyParam names the indexed property.
	propertyParam = "property"
	// PlanHeader is the Query Entities response header naming the plan the page ran, such
	// as "index(Price) eq" or "table scan" (see query.RecordPage.Plan).
	PlanHeader = "x-tabletop-plan"
)

// ErrIndexPropertyMissing means an index request lacks its property parameter.
var ErrIndexPropertyMissing = azerr.New(azerr.InvalidQueryParameterValue, "property names no property to index")

// listIndexes serves GET /{table}?comp=indexes.
func (c *call) listIndexes() {
	c.negotiate(false)
	if err := c.authorize(auth.QueryEntities, c.res.table); err != nil {
		c.fail(err)
		return
	}
	var props []string
	err := c.acct.Store.View(func(tx *core.Tx) (err error) {
		props, err = tx.Indexes(c.res.table)
		return err
	})
	if err != nil {
		c.fail(err)
		return
	}
	b := append(make([]byte, 0, 64), `{"value":[`...)
	for i, p := range props {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"Property":"`...) // property names are identifiers: nothing to escape
		b = append(b, p...)
		b = append(b, `"}`...)
	}
	c.w.Header().Set("Content-Type", "application/json")
	c.w.WriteHeader(exchange.StatusOK)
	c.w.Write(append(b, "]}"...))
}

// createIndex serves PUT /{table}?comp=indexes&property=P.
func (c *call) createIndex() {
	c.changeIndex(auth.CreateTable, (*core.Tx).CreateIndex)
}

// dropIndex serves DELETE /{table}?comp=indexes&property=P.
func (c *call) dropIndex() {
	c.changeIndex(auth.DeleteTable, (*core.Tx).DropIndex)
}

// changeIndex authorizes op and applies change to the table's index on the property.
func (c *call) changeIndex(op auth.Operation, change func(tx *core.Tx, table, prop string) error) {
	c.negotiate(false)
	if err := c.authorize(op, c.res.table); err != nil {
		c.fail(err)
		return
	}
	prop := c.query.Get(propertyParam)
	if prop == "" {
		c.fail(ErrIndexPropertyMissing)
		return
	}
	err := c.acct.Store.Update(func(tx *core.Tx) error { return change(tx, c.res.table, prop) })
	if err != nil {
		c.fail(err)
		return
	}
	c.noContent(exchange.StatusNoContent)
}
