package rest

import (
	"errors"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/query"
	"github.com/tabletopdb/tabletop/core/wire"
	"github.com/tabletopdb/tabletop/worker/rest/auth"
	"github.com/tabletopdb/tabletop/worker/rest/exchange"
)

// maxSmallBody caps bodies that hold no entity: Create Table, ACLs, service properties.
const maxSmallBody = 64 << 10

// queryTables serves Query Tables: GET /Tables with $filter, $top, $select, NextTableName.
func (c *call) queryTables() {
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
	if err := c.authorize(auth.QueryTables, ""); err != nil {
		c.fail(err)
		return
	}
	var page *query.TablesPage
	err = c.acct.Store.View(func(tx *core.Tx) (err error) {
		page, err = query.Tables(tx, query.TablesRequest{Filter: q.Get("$filter"), Top: top, NextTableName: q.Get("NextTableName")})
		return err
	})
	if err != nil {
		c.fail(err)
		return
	}
	if page.NextTableName != "" {
		c.w.Header().Set("x-ms-continuation-NextTableName", page.NextTableName)
	}
	names := make([]string, len(page.Tables))
	for i, t := range page.Tables {
		names[i] = t.Name
	}
	c.writeJSON(exchange.StatusOK, wire.AppendTables(nil, names, c.wireContext("")))
}

// getTable serves Query Tables for one table, GET /Tables('t') (Microsoft's "Querying
// tables and entities"): the table as Create Table answers it, 404 TableNotFound if it
// does not exist.
func (c *call) getTable() {
	if err := c.negotiate(true); err != nil {
		c.fail(err)
		return
	}
	if err := c.authorize(auth.QueryTables, c.res.table); err != nil {
		c.fail(err)
		return
	}
	var name string
	err := c.acct.Store.View(func(tx *core.Tx) error {
		t, err := tx.Table(c.res.table)
		if err == nil {
			name = t.Name
		}
		return err
	})
	if err != nil {
		c.fail(err)
		return
	}
	c.writeJSON(exchange.StatusOK, wire.AppendTable(nil, name, c.wireContext("")))
}

// createTable serves Create Table: POST /Tables with {"TableName":"t"}.
func (c *call) createTable() {
	content, applied := preferOf(c.r.Header, true)
	if err := c.negotiate(content); err != nil {
		c.fail(err)
		return
	}
	body, err := c.readJSON(maxSmallBody)
	if err != nil {
		c.fail(err)
		return
	}
	name, err := wire.DecodeTableName(body)
	if err != nil {
		c.fail(err)
		return
	}
	if err := c.authorize(auth.CreateTable, name); err != nil {
		c.fail(err)
		return
	}
	t, err := c.acct.Store.CreateTable(name)
	if err != nil {
		c.fail(err)
		return
	}
	c.answerCreated(c.base+"/Tables('"+t.Name+"')", applied, content, func() []byte {
		return wire.AppendTable(nil, t.Name, c.wireContext(""))
	})
}

// answerCreated answers a successful insert: Location and DataServiceId, Preference-Applied
// when Prefer was sent, and 201 with the body or 204 without it.
func (c *call) answerCreated(location, applied string, content bool, body func() []byte) {
	h := c.w.Header()
	h.Set("Location", location)
	h.Set("DataServiceId", location)
	if applied != "" {
		h.Set("Preference-Applied", applied)
	}
	if !content {
		c.noContent(exchange.StatusNoContent)
		return
	}
	c.writeJSON(exchange.StatusCreated, body())
}

// deleteTable serves Delete Table: DELETE /Tables('t').
func (c *call) deleteTable() {
	c.negotiate(false)
	if err := c.authorize(auth.DeleteTable, c.res.table); err != nil {
		c.fail(err)
		return
	}
	if err := c.acct.Store.DeleteTable(c.res.table); err != nil {
		if errors.Is(err, core.ErrTableNotFound) {
			err = errTableGone
		}
		c.fail(err)
		return
	}
	c.noContent(exchange.StatusNoContent)
}

// wireContext describes the response to the entity codec; table is "" for table listings.
func (c *call) wireContext(table string) *wire.Context {
	return &wire.Context{Metadata: c.meta, BaseURL: c.base, Account: c.acct.Name, Table: table}
}
