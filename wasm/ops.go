package main

import (
	"strconv"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/backend/outbox"
	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/core/query"
	"github.com/tabletopdb/tabletop/core/stored"
	"github.com/tabletopdb/tabletop/core/wire"
)

// store is an open core.Store with the operations of the JavaScript API. Results are JSON
// in Azure's wire form, with every type annotated (wire.Context.Exact) so that JavaScript
// tells a Double 5.0 from an Int32 5.
type store struct {
	db      *core.Store
	box     *outbox.Backend // the records a write leaves for JavaScript; nil in memory
	scratch []byte          // the last answer's buffer, reused so that answers do not regrow one
	records []stored.Record // the last query page's records, their room reused by the next page
}

// maxScratch is the largest answer buffer a store keeps for the next answer.
const maxScratch = 4 << 20

// keep keeps json's buffer for the next answer, unless it is too large to hold on to.
func (s *store) keep(json []byte) {
	if cap(json) <= maxScratch {
		s.scratch = json[:0]
	}
}

// take returns the records the last operation left, for JavaScript to make durable.
func (s *store) take() []outbox.Record {
	if s.box == nil {
		return nil
	}
	return s.box.Take()
}

// handlerFor returns the operation on an open store JavaScript calls op, nil for none.
// A switch, not a package-level map: a map is built by code at every start of the
// program, before the first call (see startup_test.go).
func handlerFor(op string) handler {
	switch op {
	case "compact":
		return func(s *store, _ [][]byte) ([]byte, error) { return nil, s.db.Compact() }
	case "createTable":
		return func(s *store, a [][]byte) ([]byte, error) { return nil, s.createTable(arg(a, 0)) }
	case "deleteTable":
		return func(s *store, a [][]byte) ([]byte, error) { return nil, s.db.DeleteTable(arg(a, 0)) }
	case "listTables":
		return func(s *store, a [][]byte) ([]byte, error) { return s.listTables(arg(a, 0), num(a, 1), arg(a, 2)) }
	case "queryEntities":
		return (*store).queryEntities
	case "getEntity":
		return func(s *store, a [][]byte) ([]byte, error) {
			return s.getEntity(arg(a, 0), arg(a, 1), arg(a, 2), arg(a, 3))
		}
	case "write":
		return (*store).write
	case "transaction":
		return (*store).transaction
	case "getAccessPolicy":
		return (*store).getAccessPolicy
	case "setAccessPolicy":
		return func(s *store, a [][]byte) ([]byte, error) { return nil, s.setAccessPolicy(a) }
	case "export":
		return (*store).export
	case "import":
		return (*store).importDump
	case "apply":
		return (*store).apply
	case "compacted":
		return (*store).compacted
	case "loadRange":
		return (*store).loadRange
	case "saveRange":
		return (*store).saveRange
	case "evictRange":
		return (*store).evictRange
	case "heapBytes":
		return (*store).heapBytes
	}
	if h := indexHandler(op); h != nil {
		return h
	}
	return syncHandler(op)
}

// arg returns argument i as a string, "" if missing.
func arg(a [][]byte, i int) string {
	if i >= len(a) {
		return ""
	}
	return string(a[i])
}

// num returns argument i as an int, 0 if missing or not a number.
func num(a [][]byte, i int) int {
	n, _ := strconv.Atoi(arg(a, i))
	return n
}

func (s *store) createTable(name string) error {
	_, err := s.db.CreateTable(name)
	return err
}

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
	b := append(append(s.scratch[:0], `{"next":"`...), page.NextTableName...) // tokens are base64url
	b = wire.AppendTables(append(b, `","page":`...), names, &wire.Context{Metadata: wire.NoMetadata})
	return append(b, '}'), nil
}

// queryEntities returns one page of a query as a binary page answer (entity.go); its
// arguments are table, filter, select, top, next partition key and next row key. The
// page is written straight from the stored records, with no entity decoded.
func (s *store) queryEntities(a [][]byte) ([]byte, error) {
	table := arg(a, 0)
	selection, err := query.ParseSelect(arg(a, 2))
	if err != nil {
		return nil, err
	}
	var page *query.RecordPage
	err = s.db.View(func(tx *core.Tx) (err error) {
		page, err = query.Records(tx, table, query.Request{Filter: arg(a, 1), Top: num(a, 3), NextPartitionKey: arg(a, 4), NextRowKey: arg(a, 5), Room: s.records})
		return err
	})
	if err != nil {
		return nil, err
	}
	s.records = page.Records[:0] // they share the store's memory, never changed: nothing to clear
	return appendPageAnswer(s.scratch[:0], page, selection), nil
}

// getEntity returns one entity as a binary entity answer (entity.go), projected by sel
// ("" for all), written straight from the stored record, with no entity decoded.
func (s *store) getEntity(table, pk, rk, sel string) ([]byte, error) {
	selection, err := query.ParseSelect(sel)
	if err != nil {
		return nil, err
	}
	rec, err := s.db.GetRecord(table, pk, rk)
	if err != nil {
		return nil, err
	}
	return appendEntityAnswer(s.scratch[:0], &rec, selection), nil
}

// write performs one entity write; its arguments are table, action (a core.OpKind name), the
// JSON entity in wire form (a delete needs only its keys) and the ETag condition ("*" or
// "" for any). It answers the new ETag as a JSON string, "" for a delete.
func (s *store) write(a [][]byte) ([]byte, error) {
	op, err := decodeOp(a[1:])
	if err != nil {
		return nil, err
	}
	e, err := s.db.Apply(arg(a, 0), op)
	if err != nil {
		return nil, err
	}
	etag := ""
	if e != nil {
		etag = e.ETag()
	}
	return wire.AppendString(nil, etag), nil
}

// decodeOp makes a core.Op from an action name, a JSON entity and an ETag condition.
func decodeOp(a [][]byte) (core.Op, error) {
	kind, ok := core.ParseOpKind(arg(a, 0))
	if !ok || len(a) < 3 {
		return core.Op{}, ErrActionInvalid
	}
	e, err := wire.DecodeEntity(a[1])
	if err != nil {
		return core.Op{}, err
	}
	return core.Op{Kind: kind, Entity: e, IfMatch: string(a[2])}, nil
}

// transaction performs an entity group transaction: its arguments are the table, then
// action, entity and ETag condition of each action, as for write. It answers the new
// ETags as a JSON array of strings, "" for deletes.
func (s *store) transaction(a [][]byte) ([]byte, error) {
	if len(a) < 2 {
		return nil, core.ErrBatchEmpty
	}
	if (len(a)-1)%3 != 0 {
		return nil, ErrActionInvalid
	}
	ops := make([]core.Op, (len(a)-1)/3)
	for i := range ops {
		op, err := decodeOp(a[1+3*i:])
		if err != nil {
			return nil, &core.OpError{Index: i, Err: err}
		}
		ops[i] = op
	}
	stored, err := s.db.ApplyBatch(arg(a, 0), ops)
	if err != nil {
		return nil, err
	}
	return appendETags(nil, stored), nil
}

// appendETags appends ["etag",…] for the entities, "" for nil (deleted) ones.
func appendETags(b []byte, es []*model.Entity) []byte {
	b = append(b, '[')
	for i, e := range es {
		if i > 0 {
			b = append(b, ',')
		}
		etag := ""
		if e != nil {
			etag = e.ETag()
		}
		b = wire.AppendString(b, etag)
	}
	return append(b, ']')
}
