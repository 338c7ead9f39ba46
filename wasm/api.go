package main

import (
	"strconv"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/backend/outbox"
	"github.com/tabletopdb/tabletop/core/replica"
	"github.com/tabletopdb/tabletop/core/wire"
)

// handler performs one operation on an open store. args are the operation's own
// arguments (after the name and the handle); they alias the request buffer, so a handler
// copies what it keeps. It returns the answer (JSON, or getEntity's binary entity), nil
// for none.
type handler func(s *store, args [][]byte) ([]byte, error)

// api holds the open stores and answers request frames. It is plain Go: main_js.go only
// moves the frames in and out of linear memory.
type api struct {
	next   int
	stores map[int]*store
	out    []byte   // the last result frame, reused by the next call
	args   [][]byte // the last request's arguments, their room reused by the next call
}

func newAPI() *api { return &api{stores: map[int]*store{}} }

// call performs the request in the frame req and returns the result frame, which stays
// valid until the next call; ok is false when the frame's JSON is an error object.
func (a *api) call(req []byte) (res []byte, ok bool) {
	json, records, err := a.dispatch(req)
	clear(a.args) // keep no hold on a request buffer that main_js.go drops
	if need, ok := asNeed(err); ok {
		return a.result(needJSON(need), nil), false
	}
	if err != nil {
		return a.result(errorJSON(err), nil), false
	}
	return a.result(json, records), true
}

func (a *api) result(json []byte, records []outbox.Record) []byte {
	a.out = appendResult(a.out[:0], json, records)
	return a.out
}

func (a *api) dispatch(req []byte) ([]byte, []outbox.Record, error) {
	args, err := decodeRequest(a.args, req)
	if err != nil {
		return nil, nil, err
	}
	a.args = args
	switch op := string(args[0]); op {
	case "open":
		return a.open(args[2:])
	case "close":
		return nil, nil, a.close(args[1])
	default:
		h := handlerFor(op)
		if h == nil {
			return nil, nil, ErrOperationUnknown
		}
		s, err := a.lookup(args[1])
		if err != nil {
			return nil, nil, err
		}
		json, err := h(s, args[2:])
		s.keep(json) // copied into the result frame before the next call
		return json, s.take(), err
	}
}

// open opens a store: args are "memory", "partial" (persistent, with no key range
// resident: see partial.go) or "outbox", then for an outbox store the snapshot (empty for
// none) and the change sets after it. It answers the handle.
func (a *api) open(args [][]byte) ([]byte, []outbox.Record, error) {
	if len(args) == 0 || (string(args[0]) != "memory" && string(args[0]) != "outbox" && string(args[0]) != "partial") {
		return nil, nil, ErrActionInvalid
	}
	s := &store{}
	// The sync client (web/src/sync.js) tracks tables, and syncs against the server's
	// change feed: the store's own is never read.
	opts := core.Options{Hooks: replica.Hooks{}, NoChangeFeed: true}
	if string(args[0]) == "partial" {
		s.box = outbox.New(nil, nil)
		opts.Backend, opts.Partial = s.box, true
	}
	if string(args[0]) == "outbox" {
		var snapshot []byte
		if len(args) > 1 {
			snapshot = args[1]
		}
		var sets [][]byte
		if len(args) > 2 {
			sets = args[2:]
		}
		s.box = outbox.New(snapshot, sets)
		opts.Backend = s.box
	}
	db, err := core.Open(opts)
	if err != nil {
		return nil, nil, err
	}
	s.db = db
	a.next++
	a.stores[a.next] = s
	return strconv.AppendInt(nil, int64(a.next), 10), nil, nil
}

func (a *api) close(handle []byte) error {
	n, _ := strconv.Atoi(string(handle))
	s, ok := a.stores[n]
	if !ok {
		return nil
	}
	delete(a.stores, n)
	return s.db.Close()
}

func (a *api) lookup(handle []byte) (*store, error) {
	n, err := strconv.Atoi(string(handle))
	if s, ok := a.stores[n]; err == nil && ok {
		return s, nil
	}
	return nil, ErrStoreNotOpen
}

// errorJSON is the object a failed call answers: {"code","statusCode","message","index"}.
func errorJSON(err error) []byte {
	a := toAPIError(err)
	b := wire.AppendString([]byte(`{"code":`), a.Code)
	b = strconv.AppendInt(append(b, `,"statusCode":`...), int64(a.Status), 10)
	b = wire.AppendString(append(b, `,"message":`...), a.Message)
	b = strconv.AppendInt(append(b, `,"index":`...), int64(a.Index), 10)
	return append(b, '}')
}
