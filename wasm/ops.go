package main

import (
	"strings"
	"sync/atomic"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/query"
	"github.com/tabletopdb/tabletop/core/wire"
)

// store is an open core.Store with the operations of the JavaScript API. Inputs are
// strings as JavaScript passes them; results are JSON, ready to cross the boundary once.
type store struct {
	db         *core.Store
	persistent bool         // kept in IndexedDB: writes wait for JavaScript I/O
	writing    atomic.Int32 // writes in flight, waiting for IndexedDB
}

// actionKinds maps the action names the web module sends to entity writes.
var actionKinds = map[string]core.OpKind{
	"create":        core.OpInsert,
	"upsertMerge":   core.OpInsertOrMerge,
	"upsertReplace": core.OpInsertOrReplace,
	"updateMerge":   core.OpMerge,
	"updateReplace": core.OpReplace,
	"delete":        core.OpDelete,
}

func (s *store) createTable(name string) error {
	_, err := s.db.CreateTable(name)
	return err
}

func (s *store) deleteTable(name string) error { return s.db.DeleteTable(name) }

// listTables returns one page of tables: {"next":"token","page":{"value":[{"TableName":…}]}}.
func (s *store) listTables(filter string, top int, next string) ([]byte, error) {
	var page *query.TablesPage
	err := s.db.View(func(tx *core.Tx) (err error) {
		page, err = query.Tables(tx, query.TablesRequest{Filter: filter, Top: top, NextTableName: next})
		return err
	})
	if err != nil {
		return nil, err
	}
	names := make([]string, len(page.Tables))
	for i, t := range page.Tables {
		names[i] = t.Name
	}
	b := append([]byte(`{"next":"`), page.NextTableName...) // tokens are base64url
	b = wire.AppendTables(append(b, `","page":`...), names, &wire.Context{Metadata: wire.NoMetadata})
	return append(b, '}'), nil
}

// queryEntities returns one page of a query:
// {"next":["pkToken","rkToken"],"page":{"odata.metadata":…,"value":[…]}}, the page in
// minimal metadata so that annotations carry the types JSON cannot tell.
func (s *store) queryEntities(table, filter, sel string, top int, nextPK, nextRK string) ([]byte, error) {
	selection, err := query.ParseSelect(sel)
	if err != nil {
		return nil, err
	}
	var page *query.Page
	err = s.db.View(func(tx *core.Tx) (err error) {
		page, err = query.Entities(tx, table, query.Request{Filter: filter, Top: top, NextPartitionKey: nextPK, NextRowKey: nextRK})
		return err
	})
	if err != nil {
		return nil, err
	}
	b := append([]byte(`{"next":["`), page.NextPartitionKey...)
	b = append(append(b, `","`...), page.NextRowKey...)
	b = append(b, `"],"page":`...)
	b = wire.AppendEntities(b, page.Entities, &wire.Context{Metadata: wire.MinimalMetadata, Table: table, Select: selection})
	return append(b, '}'), nil
}

// getEntity returns one entity in minimal metadata, projected by sel ("" for all).
func (s *store) getEntity(table, pk, rk, sel string) ([]byte, error) {
	selection, err := query.ParseSelect(sel)
	if err != nil {
		return nil, err
	}
	e, err := s.db.Get(table, pk, rk)
	if err != nil {
		return nil, err
	}
	return wire.AppendEntity(nil, e, &wire.Context{Metadata: wire.MinimalMetadata, Table: table, Select: selection}), nil
}

// write performs one entity write named by action (see actionKinds) and returns the new
// ETag ("" for a delete). entity is a JSON entity in wire form; a delete needs only its
// keys. ifMatch is the ETag condition of updates and deletes, "*" or "" for any.
func (s *store) write(table, action, entity, ifMatch string) (string, error) {
	op, err := decodeOp(action, entity, ifMatch)
	if err != nil {
		return "", err
	}
	e, err := s.db.Apply(table, op)
	if err != nil || e == nil {
		return "", err
	}
	return e.ETag(), nil
}

// decodeOp makes a core.Op from an action name, a JSON entity and an ETag condition.
func decodeOp(action, entity, ifMatch string) (core.Op, error) {
	kind, ok := actionKinds[action]
	if !ok {
		return core.Op{}, ErrActionInvalid
	}
	e, err := wire.DecodeEntity([]byte(entity))
	if err != nil {
		return core.Op{}, err
	}
	return core.Op{Kind: kind, Entity: e, IfMatch: ifMatch}, nil
}

// transaction performs an entity group transaction. Its actions come as three parallel
// lists, each item separated by a newline (which JSON text and ETags never contain):
// action names, JSON entities and ETag conditions. It returns the new ETags as a JSON
// array of strings, "" for deletes.
func (s *store) transaction(table, actions, entities, etags string) ([]byte, error) {
	if actions == "" {
		return nil, core.ErrBatchEmpty
	}
	names := strings.Split(actions, "\n")
	bodies := strings.Split(entities, "\n")
	conds := strings.Split(etags, "\n")
	if len(bodies) != len(names) || len(conds) != len(names) {
		return nil, ErrActionInvalid
	}
	ops := make([]core.Op, len(names))
	for i := range names {
		op, err := decodeOp(names[i], bodies[i], conds[i])
		if err != nil {
			return nil, &core.OpError{Index: i, Err: err}
		}
		ops[i] = op
	}
	stored, err := s.db.ApplyBatch(table, ops)
	if err != nil {
		return nil, err
	}
	return appendETags(nil, stored), nil
}

// appendETags appends ["etag",…] for the entities, "" for nil (deleted) ones. ETags hold
// one kind of character JSON must escape: the double quote.
func appendETags(b []byte, es []*core.Entity) []byte {
	b = append(b, '[')
	for i, e := range es {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '"')
		if e != nil {
			b = append(b, strings.ReplaceAll(e.ETag(), `"`, `\"`)...)
		}
		b = append(b, '"')
	}
	return append(b, ']')
}
