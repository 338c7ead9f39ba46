//go:build js && wasm

package dostore

import (
	"bytes"
	"errors"
	"maps"
	"strings"
	"syscall/js"
	"testing"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/backend/kvlog"
)

// part is the storage key of part i of key (storage.mjs).
func part(key string, i string) string { return key + "\x01" + i }

// stored is every key of the fake storage and its value.
func stored(storage js.Value) map[string]string {
	all := map[string]string{}
	keys := storage.Call("keys")
	for i := 0; i < keys.Length(); i++ {
		k := keys.Index(i).String()
		all[k] = string(goBytes(storage.Get("kv").Call("get", k)))
	}
	return all
}

// damagedKV stores a value of three parts at "log/1" and one at "log/2", then damages
// the storage.
func damagedKV(t *testing.T, damage func(kv js.Value)) (storage js.Value, kv *KV) {
	t.Helper()
	storage, adapter := newFake(t)
	kv = New(adapter)
	big := bytes.Repeat([]byte("0123456789abcdef"), 150_000) // 2.4 MB: three parts
	if err := kv.Commit([]kvlog.Entry{{Key: "log/1", Value: big}, {Key: "log/2", Value: []byte("two")}}, nil); err != nil {
		t.Fatal(err)
	}
	damage(storage.Get("kv"))
	return storage, kv
}

func TestKV_ErrDamaged(t *testing.T) {
	short := func(kv js.Value) { kv.Call("put", part("log/1", "00000001"), uint8Array.New(10)) }
	for _, c := range []struct {
		name   string
		damage func(kv js.Value)
		key    string // the key the error names
		says   string
	}{
		{"PartMissing", func(kv js.Value) { kv.Call("delete", part("log/1", "00000001")) }, part("log/1", "00000002"), "not part 1"},
		{"PartShort", short, part("log/1", "00000002"), "follows a part of 10 bytes"},
		{"PartStray", func(kv js.Value) { kv.Call("put", part("log/1", "00000009"), uint8Array.New(1)) }, part("log/1", "00000009"), "not part 3"},
		{"FirstPartMissing", func(kv js.Value) { kv.Call("delete", "log/1") }, part("log/1", "00000001"), "first part is missing"},
	} {
		t.Run(c.name, func(t *testing.T) {
			storage, kv := damagedKV(t, c.damage)
			before := stored(storage)
			check := func(op string, err error) {
				var de *kvlog.DamageError
				if !errors.Is(err, kvlog.ErrDamaged) || !errors.As(err, &de) {
					t.Fatalf("%s = %v, want ErrDamaged", op, err)
				}
				if de.Key != c.key || !strings.Contains(err.Error(), c.says) {
					t.Errorf("%s = %v (key %q), want key %q and %q", op, err, de.Key, c.key, c.says)
				}
			}
			check("Scan", kv.Scan("log/", func(string, []byte) error { return nil }))
			if c.name != "FirstPartMissing" { // Get finds no value there
				_, err := kv.Get("log/1")
				check("Get", err)
			}
			if after := stored(storage); !maps.Equal(after, before) {
				t.Errorf("reading changed the storage: %d keys, was %d", len(after), len(before))
			}
		})
	}
}

// TestBackend_ErrDamaged opens a store whose log record lost a part: refused, named.
func TestBackend_ErrDamaged(t *testing.T) {
	storage, adapter := newFake(t)
	s, err := core.Open(core.Options{Backend: kvlog.New(New(adapter))})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.CreateTable(strings.Repeat("t", 60)); err != nil {
		t.Fatal(err)
	}
	s.Close()
	key := "log/0000000000000000"
	storage.Get("kv").Call("put", part(key, "00000001"), uint8Array.New(3)) // a part after a short first part
	before := stored(storage)
	_, err = core.Open(core.Options{Backend: kvlog.New(New(adapter))})
	var de *kvlog.DamageError
	if !errors.As(err, &de) || de.Key != part(key, "00000001") {
		t.Fatalf("open = %v, want the damage of %q", err, part(key, "00000001"))
	}
	if after := stored(storage); !maps.Equal(after, before) {
		t.Error("opening changed the storage")
	}
}
