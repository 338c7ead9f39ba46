//go:build js && wasm

package dostore

import (
	"errors"
	"fmt"
	"syscall/js"

	"github.com/tabletopdb/tabletop/core/backend/kvlog"
)

// ErrStorage means the Durable Object's storage threw; the error carries its message.
var ErrStorage = errors.New("storage failed")

var uint8Array = js.Global().Get("Uint8Array")

// KV is a kvlog.KV over the storage adapter of one Durable Object.
type KV struct {
	adapter js.Value
}

var _ kvlog.KV = (*KV)(nil)

// New returns a KV over adapter, the object kvStorage(ctx.storage) of
// worker/edge/src/storage.mjs or one that behaves the same.
func New(adapter js.Value) *KV { return &KV{adapter: adapter} }

// Get returns the value at key, or nil if there is none.
func (s *KV) Get(key string) ([]byte, error) {
	if err := checkKey(key); err != nil {
		return nil, err
	}
	v, err := call(s.adapter, "get", key)
	if err != nil || v.IsUndefined() || v.IsNull() {
		return nil, err
	}
	return goBytes(v), nil
}

// Scan calls fn with each key starting with prefix and its value, in key order.
func (s *KV) Scan(prefix string, fn func(key string, value []byte) error) error {
	res, err := call(s.adapter, "list", prefix)
	if err != nil {
		return err
	}
	return unpack(res.Index(0).String(), goBytes(res.Index(1)), fn)
}

// Commit applies puts and deletes in one storage transaction: all of them or, if the
// storage throws, none.
func (s *KV) Commit(puts []kvlog.Entry, deletes []string) error {
	var p packed
	for _, e := range puts {
		if err := checkKey(e.Key); err != nil {
			return err
		}
		p.add(e.Key, e.Value)
	}
	var del packed
	for _, k := range deletes {
		if err := checkKey(k); err != nil {
			return err
		}
		del.text.WriteString(k + "\n")
	}
	_, err := call(s.adapter, "commit", p.text.String(), jsBytes(p.data), del.text.String())
	return err
}

// call calls a method of the adapter and turns what it throws into an error: the
// adapter's damage (code "DataCorrupted", see storage.mjs) into a *kvlog.DamageError,
// anything else into an ErrStorage.
func call(obj js.Value, method string, args ...any) (v js.Value, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = thrown(method, r)
		}
	}()
	return obj.Call(method, args...), nil
}

// thrown is the error of what a call of method threw.
func thrown(method string, r any) error {
	if e, ok := r.(js.Error); ok && e.Value.Type() == js.TypeObject && e.Value.Get("code").Equal(js.ValueOf("DataCorrupted")) {
		return fmt.Errorf("%s: %w", method, &kvlog.DamageError{Key: e.Value.Get("key").String(), Problem: e.Value.Get("problem").String()})
	}
	return fmt.Errorf("%s: %w: %v", method, ErrStorage, r)
}

func goBytes(v js.Value) []byte {
	b := make([]byte, v.Get("length").Int())
	js.CopyBytesToGo(b, v)
	return b
}

func jsBytes(b []byte) js.Value {
	v := uint8Array.New(len(b))
	js.CopyBytesToJS(v, b)
	return v
}
