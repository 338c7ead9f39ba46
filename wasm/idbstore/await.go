//go:build js && wasm

package idbstore

import (
	"syscall/js"

	"github.com/tabletopdb/tabletop/core/azerr"
)

// Error is a rejection of the JavaScript storage: its message, and the code and statusCode
// it carried, if any ("StoreLocked", 409 when another tab took the database over).
type Error struct {
	Code    string
	Status  int
	Message string
}

// Error implements error.
func (e *Error) Error() string { return "javascript storage: " + e.Message }

// AzureCode implements azerr.Coded: the code and status the rejection carried, with its
// message; InternalError when it carried none.
func (e *Error) AzureCode() azerr.Code {
	if e.Code == "" {
		return azerr.InternalError
	}
	return azerr.Code{Name: e.Code, Status: e.Status, Message: e.Message}
}

// await blocks until the Promise p settles, returning its value or its rejection.
func await(p js.Value) (js.Value, error) {
	type result struct {
		v   js.Value
		err error
	}
	done := make(chan result, 1)
	onValue := js.FuncOf(func(_ js.Value, a []js.Value) any {
		done <- result{v: arg0(a)}
		return nil
	})
	onError := js.FuncOf(func(_ js.Value, a []js.Value) any {
		done <- result{err: errorOf(arg0(a))}
		return nil
	})
	defer onValue.Release()
	defer onError.Release()
	p.Call("then", onValue, onError)
	r := <-done
	return r.v, r.err
}

func arg0(a []js.Value) js.Value {
	if len(a) == 0 {
		return js.Undefined()
	}
	return a[0]
}

// errorOf converts a rejection reason to an *Error.
func errorOf(v js.Value) *Error {
	e := &Error{Message: js.Global().Get("String").Invoke(v).String()}
	if v.Type() == js.TypeObject {
		if c := v.Get("code"); c.Type() == js.TypeString {
			e.Code = c.String()
		}
		if s := v.Get("statusCode"); s.Type() == js.TypeNumber {
			e.Status = s.Int()
		}
	}
	return e
}
