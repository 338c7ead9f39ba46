//go:build js && wasm

package object

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"sync/atomic"
	"syscall/js"
	"time"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/backend/kvlog"
	"github.com/tabletopdb/tabletop/worker/edge/bridge"
	"github.com/tabletopdb/tabletop/worker/edge/dostore"
	"github.com/tabletopdb/tabletop/worker/rest"
	"github.com/tabletopdb/tabletop/worker/rest/auth"
	"github.com/tabletopdb/tabletop/worker/rest/exchange"
)

// ErrUnknownOp means the glue asked for an internal operation that does not exist.
var ErrUnknownOp = errors.New("unknown internal operation")

// Object is the Go side of one Durable Object: its account's store, kept in the object's
// storage, and the REST handler over it.
//
// The store is partial (core.Options.Partial): an object that starts reads the head, the
// directory of pages and the log, and then the pages each request needs (kvlog's
// Partial), so that its first answer does not wait for its whole table. A request
// that meets a key range not loaded yet is answered again once the range is loaded; the
// operations over the whole store (its size, a split's moves) load every range first.
type Object struct {
	store   *core.Store
	pages   *kvlog.Backend
	account *rest.Account
	handler *rest.Handler
	need    *core.NeedRangeError // the range the request being served lacked
	served  atomic.Int64
	panics  atomic.Int64
}

// compactAfter is the bytes of log after which the object compacts its store: an object
// that starts reads its whole log, so the log stays small; a compaction rewrites only the
// pages the log touched (kvlog's CompactPages).
const compactAfter = 32 << 10

// Open opens the store kept in storage (the adapter of worker/edge/src/storage.mjs over the
// object's ctx.storage), keeping deletion records for retention and dropping the expired
// ones, and the REST handler serving account from it.
func Open(account auth.Account, storage js.Value, retention time.Duration) (*Object, error) {
	pages := kvlog.New(dostore.New(storage)).Partial()
	store, err := core.Open(core.Options{Backend: pages, Partial: true, DeletionRetention: retention})
	if err != nil {
		return nil, fmt.Errorf("open store: %w", err)
	}
	if err := purgeDeletions(store, pages); err != nil {
		store.Close()
		return nil, fmt.Errorf("purge deletion records: %w", err)
	}
	o := &Object{store: store, pages: pages}
	o.account = &rest.Account{Account: account, Store: store}
	o.handler, err = rest.New(rest.Options{Accounts: []*rest.Account{o.account}, MaxWait: feedWait, HostWaits: true,
		NeedRange: func(need *core.NeedRangeError) { o.need = need }})
	if err != nil {
		store.Close()
		return nil, err
	}
	return o, nil
}

// purgeDeletions drops the deletion records past their retention, loading their ranges;
// an empty store has none, and loads nothing for them.
func purgeDeletions(store *core.Store, pages *kvlog.Backend) error {
	if pages.Empty() {
		return nil
	}
	return pages.Run(store, func() error {
		_, err := store.PurgeDeletions()
		return err
	})
}

// ServeFrame answers the request in frame, whose first headLen bytes are its head, and
// appends its answer frame to dst (see bridge.ServeFrame). It runs synchronously on the
// caller's stack: the handler never waits for JavaScript (the storage's calls are
// synchronous), so it can be called from a //go:wasmexport function.
func (o *Object) ServeFrame(dst, frame []byte, headLen int) []byte {
	defer o.served.Add(1)
	var out []byte
	err := o.pages.Run(o.store, func() error {
		o.need = nil
		out = bridge.ServeFrame(o.handler, dst, frame, headLen, o.panicked)
		if o.need != nil {
			return o.need // the answer is thrown away: served again once the range is loaded
		}
		return nil
	})
	if err != nil {
		js.Global().Get("console").Call("error", "tabletop: "+err.Error())
		fail := exchange.HandlerFunc(func(w exchange.ResponseWriter, r *exchange.Request) { o.handler.ServeError(w, r, err) })
		return bridge.ServeFrame(fail, dst, frame, headLen, o.panicked)
	}
	o.compactIfDue()
	return out
}

// compactIfDue compacts the store once its log has passed compactAfter. A failure is
// logged: the writes are in the log, and the next request tries again.
func (o *Object) compactIfDue() {
	if o.pages.LogBytes() <= compactAfter {
		return
	}
	if err := o.pages.CompactPages(o.store); err != nil {
		js.Global().Get("console").Call("error", "tabletop: compact store: "+err.Error())
	}
}

// loadAll makes every key range of the store resident.
func (o *Object) loadAll() error {
	return o.pages.LoadRange(o.store, "", core.KeySpaceEnd)
}

// panicked counts and logs a panic the handler recovered from.
func (o *Object) panicked(v any) {
	o.panics.Add(1)
	js.Global().Get("console").Call("error", fmt.Sprintf("tabletop: panic serving a request: %v", v))
}

// feedWait is the longest a table object holds a change feed request that waits for a
// write: the glue holds it (objects.mjs, hold), as Go must not block while serving. An
// idle subscriber asks again once per feedWait.
const feedWait = 30 * time.Second

// JSCall is binding.call(op, arg, resolve), for js.FuncOf: it runs one internal operation
// (see Internal) and calls resolve(result, error), error being "" on success.
func (o *Object) JSCall(_ js.Value, args []js.Value) any {
	op, arg, resolve := args[0].String(), args[1].String(), args[2]
	go func() {
		res, err := o.Internal(op, arg)
		msg := ""
		if err != nil {
			msg = err.Error()
		}
		resolve.Invoke(res, msg)
	}()
	return nil
}

// Internal runs the operations the glue needs beside the REST API: keeping a table
// object's table in step with the account's catalog (ensureTable, dropTable, tableName),
// splitting a table between objects (count, size, bytes, splitKey, export, import, evict,
// forget, feedState, adoptFeed), handing on service properties (properties,
// setProperties: kept in memory) and the CORS headers of the glue's own answers (cors),
// stats, and exit (which ends the program, for tests of the glue's restart). Each loads
// the key ranges it needs; those over the whole store load every range first.
func (o *Object) Internal(op, arg string) (res string, err error) {
	if overWholeStore(op) {
		if err := o.loadAll(); err != nil {
			return "", err
		}
	}
	err = o.pages.Run(o.store, func() (err error) {
		res, err = o.internal(op, arg)
		return err
	})
	o.compactIfDue()
	return res, err
}

// overWholeStore reports whether an internal operation is over the whole store: its size,
// or moving spans of a table between objects.
func overWholeStore(op string) bool {
	switch op {
	case "count", "size", "bytes", "splitKey", "export", "import", "evict", "forget", "feedState", "adoptFeed":
		return true
	}
	return false
}

// internal runs one internal operation (see Internal).
func (o *Object) internal(op, arg string) (string, error) {
	switch op {
	case "ensureTable": // create the table unless it exists
		if _, err := o.store.CreateTable(arg); err != nil && !errors.Is(err, core.ErrTableExists) {
			return "", err
		}
		return "", nil
	case "dropTable": // delete the table if it exists
		if err := o.store.DeleteTable(arg); err != nil && !errors.Is(err, core.ErrTableNotFound) {
			return "", err
		}
		return "", nil
	case "tableName": // the name the table was created with, "" if there is none
		return o.tableName(arg)
	case "properties": // the account's stored service properties ("" for the defaults)
		return o.account.PropertiesDocument()
	case "setProperties": // the account's properties, for a table object's CORS (memory only)
		o.account.UseProperties(arg)
		return "", nil
	case "cors": // the CORS headers of an answer the glue built (see corsLines)
		return corsLines(o.account, arg)
	case "count": // the entities of the table in this store
		return count(o.store, arg)
	case "size": // the records of the store, in constant time: what a split is decided on
		n, err := o.store.Records()
		return strconv.Itoa(n), err
	case "bytes": // the bytes of the store's records, in linear time: what a split by size is decided on
		n, err := o.store.Bytes()
		return strconv.Itoa(n), err
	case "splitKey", "export", "import", "evict", "forget", "feedState", "adoptFeed": // moving a span (see move.go)
		return o.move(op, arg)
	case "stats":
		return o.Stats(), nil
	case "exit": // end the program, as a fatal error would (tests of the glue's restart)
		os.Exit(3)
	}
	return "", fmt.Errorf("%s: %w", op, ErrUnknownOp)
}

// move runs one of the operations that move a span of a table between objects.
func (o *Object) move(op, arg string) (string, error) {
	switch op {
	case "splitKey":
		return splitKey(o.store, arg)
	case "export":
		return exportChunk(o.store, arg)
	case "import":
		return "", importChunk(o.store, arg)
	case "evict":
		return "", evict(o.store, arg)
	case "feedState":
		return feedState(o.store, arg)
	case "adoptFeed":
		return "", adoptFeed(o.store, arg)
	}
	return "", forget(o.store, arg)
}

// tableName returns the stored name of the table named name in any case, "" if none.
func (o *Object) tableName(name string) (string, error) {
	var t *core.Table
	err := o.store.View(func(tx *core.Tx) (err error) {
		t, err = tx.Table(name)
		return err
	})
	if errors.Is(err, core.ErrTableNotFound) || name == "" {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	return t.Name, nil
}

// Stats reports, as JSON, what a leak test watches: requests served, panics, goroutines,
// and the heap after a collection.
func (o *Object) Stats() string {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return fmt.Sprintf(`{"served":%d,"panics":%d,"goroutines":%d,"heapAlloc":%d,"heapSys":%d}`,
		o.served.Load(), o.panics.Load(), runtime.NumGoroutine(), m.HeapAlloc, m.HeapSys)
}
