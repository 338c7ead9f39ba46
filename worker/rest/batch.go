package rest

import (
	"bytes"
	"errors"
	"strconv"
	"strings"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/worker/rest/batch"
	"github.com/tabletopdb/tabletop/worker/rest/exchange"
)

// batch serves Entity Group Transactions: POST /$batch. Every operation is parsed and
// authorized, then all are applied in one store transaction; a failure answers 202 with
// only the failing operation's error, its message prefixed with the 0-based index.
func (c *call) batch() {
	c.negotiate(false)
	body, err := c.readBody(model.MaxBatchBytes)
	if err != nil {
		c.fail(err)
		return
	}
	subs, err := batch.ReadRequest(bytes.NewReader(body), c.r.Header.Get("Content-Type"))
	var oe *batch.OperationError
	if errors.As(err, &oe) {
		c.answerBatch(c.batchFailure(oe.Index, oe.Err))
		return
	}
	if err != nil {
		c.fail(err)
		return
	}
	if subs[0].Method == exchange.MethodGet { // a query batch: the query alone
		c.batchQuery(subs[0])
		return
	}
	writes, err := c.parseBatch(subs)
	var stored []*model.Entity
	if err == nil {
		stored, err = c.acct.Store.ApplyBatch(writes[0].table, ops(writes))
	}
	if err != nil {
		c.answerBatch(c.batchFailure(failedIndex(err), c.batchError(err, writes)))
		return
	}
	rs := make([]batch.Response, len(writes))
	for i, w := range writes {
		rs[i].Header = exchange.Header{}
		rs[i].Status, rs[i].Body = c.answerWrite(rs[i].Header, new([5]string), w, stored[i])
		rs[i].Header.Set("X-Content-Type-Options", "nosniff")
		rs[i].Header.Set("Cache-Control", "no-cache")
	}
	c.answerBatch(rs)
}

// parseBatch parses and authorizes each operation; a failure is a *core.OpError.
func (c *call) parseBatch(subs []batch.SubRequest) ([]*write, error) {
	writes := make([]*write, len(subs))
	for i, s := range subs {
		w, err := c.parseSub(s)
		if err == nil && i > 0 && !strings.EqualFold(w.table, writes[0].table) {
			err = errBatchTables
		}
		if err == nil {
			err = c.authorizeEntity(w.operation(), w.table, w.op.Entity.PartitionKey, w.op.Entity.RowKey)
		}
		if err != nil {
			return nil, &core.OpError{Index: i, Err: err}
		}
		writes[i] = w
	}
	return writes, nil
}

// parseSub parses one operation of a batch: its URL must address this account.
func (c *call) parseSub(s batch.SubRequest) (*write, error) {
	res, err := c.subResource(s)
	if err != nil {
		return nil, err
	}
	method, err := effectiveMethod(&exchange.Request{Method: s.Method, Header: s.Header})
	if err != nil {
		return nil, err
	}
	q, err := parseQuery(s.URL.RawQuery)
	if err != nil {
		return nil, err
	}
	w := &write{}
	if err := c.parseWrite(w, writeKind(method), q.Get("$format"), res, s.Header, s.Body); err != nil {
		return nil, err
	}
	return w, nil
}

// subResource parses the URL of a batch operation, relative to this call's account.
func (c *call) subResource(s batch.SubRequest) (resource, error) {
	path := s.URL.Path
	if a, _ := c.h.hostAccount(s.URL.Host); a != c.acct {
		name, rest, _ := strings.Cut(strings.TrimPrefix(path, "/"), "/")
		if name != c.acct.Name {
			return resource{}, errUnknownAccount
		}
		path = "/" + rest
	}
	res, err := parseResource(path)
	if err == nil && res.kind != kindEntity && res.kind != kindEntities {
		err = errBadURI
	}
	return res, err
}

func ops(ws []*write) []core.Op {
	out := make([]core.Op, len(ws))
	for i, w := range ws {
		out[i] = w.op
	}
	return out
}

// failedIndex is the index of the operation that failed: an *core.OpError's, else 0.
func failedIndex(err error) int {
	var oe *core.OpError
	if errors.As(err, &oe) {
		return oe.Index
	}
	return 0
}

// batchError adds the RowKey to a duplicate-row error, for its message.
func (c *call) batchError(err error, writes []*write) error {
	i := failedIndex(err)
	if errors.Is(err, core.ErrBatchDuplicateRow) && i < len(writes) {
		return &model.FieldError{Field: model.RowKeyName, Value: writes[i].op.Entity.RowKey, Err: core.ErrBatchDuplicateRow}
	}
	return err
}

// batchFailure is the changeset of a failed batch: operation i's error, in JSON, its
// message prefixed with "i:".
func (c *call) batchFailure(i int, err error) []batch.Response {
	a := c.answerOf(err)
	h := exchange.Header{}
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cache-Control", "no-cache")
	h.Set("DataServiceVersion", "3.0;")
	h.Set("Content-Type", c.meta.ContentType())
	c.w.Header().Set("x-ms-error-code", a.Code)
	body := appendErrorJSON(nil, a, c.errorMessage(a, strconv.Itoa(i)+":"))
	return []batch.Response{{Status: a.Status, Header: h, Body: body}}
}

// answerBatch writes the 202 multipart answer holding rs.
func (c *call) answerBatch(rs []batch.Response) {
	bb, cb := batch.NewBoundaries()
	c.w.Header().Set("Content-Type", batch.ContentType(bb))
	c.w.WriteHeader(exchange.StatusAccepted)
	batch.WriteResponse(c.w, bb, cb, rs)
}
