//go:build js && wasm

package idbstore

import (
	"syscall/js"

	"github.com/tabletopdb/tabletop/core/backend/kvlog"
)

// KV is a kvlog.KV over a JavaScript storage object (see the package documentation).
type KV struct {
	obj js.Value
}

var _ kvlog.KV = (*KV)(nil)

// New returns a KV over obj.
func New(obj js.Value) *KV { return &KV{obj: obj} }

// Get returns the value at key, or nil if there is none.
func (k *KV) Get(key string) ([]byte, error) {
	v, err := await(k.obj.Call("get", key))
	if err != nil {
		return nil, err
	}
	if v.IsUndefined() || v.IsNull() {
		return nil, nil
	}
	return bytesOf(v), nil
}

// Scan calls fn with each key and value under prefix, in key order. The JavaScript side
// reads them all in one request.
func (k *KV) Scan(prefix string, fn func(key string, value []byte) error) error {
	v, err := await(k.obj.Call("scan", prefix))
	if err != nil {
		return err
	}
	keys, values := v.Index(0), v.Index(1)
	for i, n := 0, keys.Length(); i < n; i++ {
		if err := fn(keys.Index(i).String(), bytesOf(values.Index(i))); err != nil {
			return err
		}
	}
	return nil
}

// Commit applies puts and deletes in one durable JavaScript transaction.
func (k *KV) Commit(puts []kvlog.Entry, deletes []string) error {
	array := js.Global().Get("Array")
	keys, values, dels := array.New(len(puts)), array.New(len(puts)), array.New(len(deletes))
	u8 := js.Global().Get("Uint8Array")
	for i, e := range puts {
		keys.SetIndex(i, e.Key)
		b := u8.New(len(e.Value))
		js.CopyBytesToJS(b, e.Value)
		values.SetIndex(i, b)
	}
	for i, d := range deletes {
		dels.SetIndex(i, d)
	}
	_, err := await(k.obj.Call("commit", keys, values, dels))
	return err
}

// bytesOf copies a Uint8Array into Go.
func bytesOf(v js.Value) []byte {
	b := make([]byte, v.Length())
	js.CopyBytesToGo(b, v)
	return b
}
