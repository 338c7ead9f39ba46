//go:build js && wasm

package main

import (
	"sync"
	"syscall/js"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/backend/kvlog"
	"github.com/tabletopdb/tabletop/wasm/idbstore"
)

// stores holds the open stores by handle.
var stores = struct {
	sync.Mutex
	next int
	m    map[int]*store
}{m: map[int]*store{}}

func main() {
	api := js.Global().Get("Object").New()
	for name, op := range operations() {
		api.Set(name, js.FuncOf(op.jsFunc()))
	}
	js.Global().Set("tabletopGo", api)
	if ready := js.Global().Get("tabletopGoReady"); ready.Type() == js.TypeFunction {
		ready.Invoke()
	}
	select {}
}

// function is one operation: it receives the JavaScript arguments, converted to Go
// strings and ints by the arg helpers, and returns a value for js.ValueOf.
type function func(args []js.Value) (any, error)

// operation is a function and how it may be run.
type operation struct {
	fn function
	// io says when the operation may wait for JavaScript I/O (IndexedDB), which it can
	// only do in a goroutine while the event loop runs: never (reads), on a persistent
	// store (writes), or always (open, close).
	io ioKind
}

type ioKind uint8

const (
	noIO ioKind = iota
	persistentIO
	alwaysIO
)

// operations are the operations, by the name JavaScript calls them.
func operations() map[string]operation {
	return map[string]operation{
		"open":        {open, alwaysIO},
		"close":       {closeStore, alwaysIO},
		"compact":     {withStore(func(s *store, _ []js.Value) (any, error) { return nil, s.db.Compact() }), persistentIO},
		"createTable": {withStore(func(s *store, a []js.Value) (any, error) { return nil, s.createTable(str(a, 1)) }), persistentIO},
		"deleteTable": {withStore(func(s *store, a []js.Value) (any, error) { return nil, s.deleteTable(str(a, 1)) }), persistentIO},
		"listTables": {withStore(func(s *store, a []js.Value) (any, error) {
			return text(s.listTables(str(a, 1), num(a, 2), str(a, 3)))
		}), noIO},
		"queryEntities": {withStore(func(s *store, a []js.Value) (any, error) {
			return text(s.queryEntities(str(a, 1), str(a, 2), str(a, 3), num(a, 4), str(a, 5), str(a, 6)))
		}), noIO},
		"getEntity": {withStore(func(s *store, a []js.Value) (any, error) {
			return text(s.getEntity(str(a, 1), str(a, 2), str(a, 3), str(a, 4)))
		}), noIO},
		"write": {withStore(func(s *store, a []js.Value) (any, error) {
			return s.write(str(a, 1), str(a, 2), str(a, 3), str(a, 4))
		}), persistentIO},
		"transaction": {withStore(func(s *store, a []js.Value) (any, error) {
			return text(s.transaction(str(a, 1), str(a, 2), str(a, 3), str(a, 4)))
		}), persistentIO},
	}
}

// jsFunc is the body of the operation's js.Func. An operation that cannot wait for
// JavaScript I/O runs at once and returns its result, or a rejected Promise; one that may
// runs in a goroutine behind a Promise. Running at once saves a goroutine, a Promise and
// a js.Func per call: most of the cost of a point read. A read waits in a goroutine too
// while a write of its store is in flight, since the write holds the store's lock until
// IndexedDB answers, which it cannot do while a synchronous call holds the event loop.
func (op operation) jsFunc() func(js.Value, []js.Value) any {
	return func(_ js.Value, args []js.Value) any {
		if op.io == alwaysIO {
			return promised(op.fn, args, nil)
		}
		s := lookup(args)
		switch {
		case s != nil && s.persistent && op.io == persistentIO:
			s.writing.Add(1)
			return promised(op.fn, args, func() { s.writing.Add(-1) })
		case s != nil && s.writing.Load() > 0:
			return promised(op.fn, args, nil)
		}
		v, err := op.fn(args)
		if err != nil {
			return js.Global().Get("Promise").Call("reject", errorValue(err))
		}
		return v
	}
}

// lookup returns the store whose handle is the first argument, or nil.
func lookup(args []js.Value) *store {
	if len(args) == 0 || args[0].Type() != js.TypeNumber {
		return nil
	}
	stores.Lock()
	defer stores.Unlock()
	return stores.m[num(args, 0)]
}

// open opens a store and returns its handle. Its one argument is the storage object of a
// persistent store (see idbstore), or undefined for a store in memory only.
func open(args []js.Value) (any, error) {
	var opts core.Options
	if len(args) > 0 && args[0].Truthy() {
		opts.Backend = kvlog.New(idbstore.New(args[0]))
	}
	db, err := core.Open(opts)
	if err != nil {
		return nil, err
	}
	stores.Lock()
	defer stores.Unlock()
	stores.next++
	stores.m[stores.next] = &store{db: db, persistent: opts.Backend != nil}
	return stores.next, nil
}

// closeStore closes the store whose handle is the first argument.
func closeStore(args []js.Value) (any, error) {
	stores.Lock()
	s, ok := stores.m[num(args, 0)]
	delete(stores.m, num(args, 0))
	stores.Unlock()
	if !ok {
		return nil, nil
	}
	return nil, s.db.Close()
}

// withStore adapts an operation on a store to a function whose first argument is the
// store's handle.
func withStore(fn func(s *store, args []js.Value) (any, error)) function {
	return func(args []js.Value) (any, error) {
		s := lookup(args)
		if s == nil {
			return nil, ErrStoreNotOpen
		}
		return fn(s, args)
	}
}

// promised runs fn in a goroutine and returns a Promise of its result; done, if not nil,
// runs when fn has returned.
func promised(fn function, args []js.Value, done func()) js.Value {
	var resolve, reject js.Value
	executor := js.FuncOf(func(_ js.Value, a []js.Value) any {
		resolve, reject = a[0], a[1]
		return nil
	})
	p := js.Global().Get("Promise").New(executor)
	executor.Release()
	go func() {
		v, err := fn(args)
		if done != nil {
			done()
		}
		if err != nil {
			reject.Invoke(errorValue(err))
			return
		}
		resolve.Invoke(v)
	}()
	return p
}

// errorValue is the plain object a failed operation rejects with.
func errorValue(err error) js.Value {
	a := toAPIError(err)
	return js.ValueOf(map[string]any{"code": a.Code, "statusCode": a.Status, "message": a.Message, "index": a.Index})
}

// str returns argument i as a string; "" if it is missing, undefined or null.
func str(args []js.Value, i int) string {
	if i >= len(args) || args[i].IsUndefined() || args[i].IsNull() {
		return ""
	}
	return args[i].String()
}

// num returns argument i as an int; 0 if it is missing, undefined or null.
func num(args []js.Value, i int) int {
	if i >= len(args) || args[i].IsUndefined() || args[i].IsNull() {
		return 0
	}
	return args[i].Int()
}

// text converts a JSON result to a JavaScript string.
func text(b []byte, err error) (any, error) {
	if err != nil {
		return nil, err
	}
	return string(b), nil
}
