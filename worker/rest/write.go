package rest

import (
	"strings"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/azerr"
	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/core/wire"
	"github.com/tabletopdb/tabletop/worker/rest/auth"
	"github.com/tabletopdb/tabletop/worker/rest/exchange"
)

// write is an entity write parsed from a request, alone or inside a batch: the store
// operation and how to answer it.
type write struct {
	table     string
	op        core.Op
	content   bool          // answer 201 with the entity (an insert without return-no-content)
	applied   string        // Preference-Applied, when Prefer was sent
	meta      wire.Metadata // metadata level of the answer
	formatErr error         // ErrAtomNotSupported when content is due in a format we lack
}

// writeKind is the write method asks for when it comes with If-Match: POST inserts, PUT
// replaces, PATCH or MERGE merges, DELETE deletes; 0 for another method. Without
// If-Match, PUT and MERGE upsert (upsertKind). A switch, not a package-level map, which
// would be built at every start of the program.
func writeKind(method string) core.OpKind {
	switch method {
	case exchange.MethodPost:
		return core.OpInsert
	case exchange.MethodPut:
		return core.OpReplace
	case exchange.MethodPatch, "MERGE":
		return core.OpMerge
	case exchange.MethodDelete:
		return core.OpDelete
	}
	return 0
}

// parseWrite parses an entity write of kind (from writeKind; format is the $format
// parameter, if any) into w. A delete needs If-Match.
func (c *call) parseWrite(w *write, kind core.OpKind, format string, res resource, h exchange.Header, body []byte) error {
	*w = write{table: res.table}
	if kind == core.OpInsert {
		return w.parseInsert(res, format, h, body)
	}
	if res.kind != kindEntity {
		return ErrMethodNotAllowed
	}
	if err := ifNoneMatchError(h, kind); err != nil {
		return err
	}
	ifMatch, sent, err := ifMatchOf(h)
	if err != nil {
		return err
	}
	w.meta, _ = wire.ParseFormat(formatOf(h, format))
	if kind == core.OpDelete {
		if !sent {
			return ErrIfMatchMissing
		}
		e := &model.Entity{PartitionKey: res.partitionKey, RowKey: res.rowKey}
		w.op = core.Op{Kind: core.OpDelete, Entity: e, IfMatch: ifMatch}
		return nil
	}
	e, err := decodeAt(body, res.partitionKey, res.rowKey)
	if err != nil {
		return err
	}
	w.op = core.Op{Kind: kind, Entity: e, IfMatch: ifMatch}
	if !sent {
		w.op.Kind = upsertKind(kind)
	}
	return nil
}

// parseInsert parses an Insert Entity body and its Prefer and Accept headers.
func (w *write) parseInsert(res resource, format string, h exchange.Header, body []byte) error {
	if res.kind != kindEntities {
		return ErrMethodNotAllowed
	}
	w.content, w.applied = preferOf(h, true)
	var ok bool
	w.meta, ok = wire.ParseFormat(formatOf(h, format))
	if !ok && w.content {
		w.formatErr = ErrAtomNotSupported
	}
	e, err := wire.DecodeEntity(body)
	if err != nil {
		return err
	}
	w.op = core.Op{Kind: core.OpInsert, Entity: e}
	return nil
}

// upsertKind is the write a replace or merge becomes without If-Match.
func upsertKind(kind core.OpKind) core.OpKind {
	if kind == core.OpReplace {
		return core.OpInsertOrReplace
	}
	return core.OpInsertOrMerge
}

// operation is the operation the write is, for authorization.
func (w *write) operation() auth.Operation {
	switch w.op.Kind {
	case core.OpInsert:
		return auth.InsertEntity
	case core.OpReplace:
		return auth.UpdateEntity
	case core.OpMerge:
		return auth.MergeEntity
	case core.OpInsertOrReplace:
		return auth.InsertOrReplaceEntity
	case core.OpInsertOrMerge:
		return auth.InsertOrMergeEntity
	}
	return auth.DeleteEntity
}

// answerWrite is the answer to a write that succeeded: its headers, set in h, then its
// status and body. stored is the entity as written (nil for a delete). The header values
// are kept in v (each header's slice a piece of it), an insert's Location and ETag share
// one string, and the names are spelled canonically (exchange.CanonicalKey) as they are
// set, so that the answer costs few allocations.
func (c *call) answerWrite(h exchange.Header, v *[5]string, w *write, stored *model.Entity) (int, []byte) {
	if w.op.Kind == core.OpDelete {
		v[0] = "1.0;"
		h["Dataserviceversion"] = v[0:1:1]
		return exchange.StatusNoContent, nil
	}
	if w.op.Kind != core.OpInsert {
		v[0], v[1] = "1.0;", stored.ETag()
		h["Dataserviceversion"], h["Etag"] = v[0:1:1], v[1:2:2]
		return exchange.StatusNoContent, nil
	}
	var buf [256]byte
	b := wire.AppendKeyPredicate(append(append(buf[:0], c.base...), '/'), w.table, stored.PartitionKey, stored.RowKey)
	n := len(b)
	both := string(model.AppendETag(b, stored.Timestamp))
	v[0], v[1], v[2], v[3], v[4] = w.applied, "3.0;", both[:n], both[n:], ""
	if w.applied != "" {
		h["Preference-Applied"] = v[0:1:1]
	}
	h["Dataserviceversion"] = v[1:2:2]
	h["Location"], h["Dataserviceid"] = v[2:3:3], v[2:3:3]
	h["Etag"] = v[3:4:4]
	if !w.content {
		return exchange.StatusNoContent, nil
	}
	v[4] = w.meta.ContentType()
	h["Content-Type"] = v[4:5:5]
	ctx := &wire.Context{Metadata: w.meta, BaseURL: c.base, Account: c.acct.Name, Table: w.table}
	return exchange.StatusCreated, wire.AppendEntity(nil, stored, ctx)
}

// decodeAt decodes an entity body for the entity at (pk, rk): keys the body leaves out
// come from the URL, and keys it gives must agree with it.
func decodeAt(body []byte, pk, rk string) (*model.Entity, error) {
	e, keys, err := wire.DecodeEntityBody(body)
	if err != nil {
		return nil, err
	}
	if keys.PartitionKey && e.PartitionKey != pk || keys.RowKey && e.RowKey != rk {
		return nil, ErrBodyInvalid
	}
	e.PartitionKey, e.RowKey = pk, rk
	return e, nil
}

// ifMatchOf returns the If-Match header, checked to be "*" or a weak ETag, and whether it
// was sent.
func ifMatchOf(h exchange.Header) (string, bool, error) {
	v := h.Values("If-Match")
	if len(v) == 0 {
		return "", false, nil
	}
	if err := model.CheckETag(v[0]); err != nil {
		return "", true, err
	}
	return v[0], true, nil
}

// ifNoneMatchError is the error of an update, merge or delete (kind) sent with
// If-None-Match, which Azure refuses on each of them ("Table service error codes"), with
// or without If-Match; nil without it. Honouring it would need a condition the store does
// not have, and ignoring it would apply a write its sender made conditional. The error is
// made here, not kept in a sentinel: a package-level azerr.New runs at every start of the
// edge program (worker/edge's TestStartup_OpenCompiles bounds what a start runs).
func ifNoneMatchError(h exchange.Header, kind core.OpKind) error {
	switch {
	case len(h.Values("If-None-Match")) == 0:
		return nil
	case len(h.Values("If-Match")) != 0:
		return azerr.New(azerr.IfNoneMatchWithIfMatch, "If-Match and If-None-Match both given")
	case kind == core.OpDelete:
		return azerr.New(azerr.IfNoneMatchOnDelete, "If-None-Match given on a delete")
	}
	return azerr.New(azerr.IfNoneMatchOnUpdate, "If-None-Match given on an update")
}

// preferOf reads the Prefer header: whether the answer should carry the content, and the
// Preference-Applied to answer ("" when Prefer named neither preference).
func preferOf(h exchange.Header, def bool) (content bool, applied string) {
	for _, v := range h.Values("Prefer") {
		for p := range strings.SplitSeq(v, ",") {
			switch strings.ToLower(strings.TrimSpace(p)) {
			case "return-no-content":
				return false, "return-no-content"
			case "return-content":
				return true, "return-content"
			}
		}
	}
	return def, ""
}

// formatOf is the requested format: $format (given by the caller) over Accept.
func formatOf(h exchange.Header, format string) string {
	if format != "" {
		return format
	}
	return h.Get("Accept")
}
