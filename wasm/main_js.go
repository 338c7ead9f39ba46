//go:build js && wasm

package main

import (
	"sync"
	"syscall/js"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/backend/kvlog"
	"github.com/tabletopdb/tabletop/wasm/jskv"
)

// stores holds the open stores by handle.
var stores = struct {
	sync.Mutex
	next int
	m    map[int]*store
}{m: map[int]*store{}}

func main() {
	api := js.Global().Get("Object").New()
	for name, fn := range functions() {
		api.Set(name, js.FuncOf(promised(fn)))
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

// functions are the operations, by the name JavaScript calls them.
func functions() map[string]function {
	return map[string]function{
		"open":        open,
		"close":       closeStore,
		"compact":     withStore(func(s *store, _ []js.Value) (any, error) { return nil, s.db.Compact() }),
		"createTable": withStore(func(s *store, a []js.Value) (any, error) { return nil, s.createTable(str(a, 1)) }),
		"deleteTable": withStore(func(s *store, a []js.Value) (any, error) { return nil, s.deleteTable(str(a, 1)) }),
		"listTables": withStore(func(s *store, a []js.Value) (any, error) {
			return text(s.listTables(str(a, 1), num(a, 2), str(a, 3)))
		}),
		"queryEntities": withStore(func(s *store, a []js.Value) (any, error) {
			return text(s.queryEntities(str(a, 1), str(a, 2), str(a, 3), num(a, 4), str(a, 5), str(a, 6)))
		}),
		"getEntity": withStore(func(s *store, a []js.Value) (any, error) {
			return text(s.getEntity(str(a, 1), str(a, 2), str(a, 3), str(a, 4)))
		}),
		"write": withStore(func(s *store, a []js.Value) (any, error) {
			return s.write(str(a, 1), str(a, 2), str(a, 3), str(a, 4))
		}),
		"transaction": withStore(func(s *store, a []js.Value) (any, error) {
			return text(s.transaction(str(a, 1), str(a, 2), str(a, 3), str(a, 4)))
		}),
	}
}

// open opens a store and returns its handle. Its one argument is the storage object of a
// persistent store (see jskv), or undefined for a store in memory only.
func open(args []js.Value) (any, error) {
	var opts core.Options
	if len(args) > 0 && args[0].Truthy() {
		opts.Backend = kvlog.New(jskv.New(args[0]))
	}
	db, err := core.Open(opts)
	if err != nil {
		return nil, err
	}
	stores.Lock()
	defer stores.Unlock()
	stores.next++
	stores.m[stores.next] = &store{db: db}
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
		stores.Lock()
		s, ok := stores.m[num(args, 0)]
		stores.Unlock()
		if !ok {
			return nil, ErrStoreNotOpen
		}
		return fn(s, args)
	}
}

// promised turns fn into a js.Func body that returns a Promise and runs fn in a goroutine.
func promised(fn function) func(js.Value, []js.Value) any {
	return func(_ js.Value, args []js.Value) any {
		var resolve, reject js.Value
		executor := js.FuncOf(func(_ js.Value, a []js.Value) any {
			resolve, reject = a[0], a[1]
			return nil
		})
		p := js.Global().Get("Promise").New(executor)
		executor.Release()
		go func() {
			v, err := fn(args)
			if err != nil {
				reject.Invoke(errorValue(err))
				return
			}
			resolve.Invoke(v)
		}()
		return p
	}
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
