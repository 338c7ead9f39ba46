//go:build js && wasm

package dostore

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall/js"
	"testing"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/backend/backendtest"
	"github.com/tabletopdb/tabletop/core/backend/kvlog"
)

// The tests run the real adapter, worker/edge/src/storage.mjs, over the fake storage of
// worker/edge/test/fakestorage.cjs, in Node.

func edgePath(t testing.TB, rel string) string {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Join(wd, "..", rel)
}

// importModule imports an ES module the way Node's dynamic import does.
func importModule(t testing.TB, path string) js.Value {
	imp := js.Global().Get("Function").New("p", "return import(p)")
	done := make(chan js.Value, 1)
	fail := make(chan js.Value, 1)
	then := js.FuncOf(func(_ js.Value, a []js.Value) any { done <- a[0]; return nil })
	catch := js.FuncOf(func(_ js.Value, a []js.Value) any { fail <- a[0]; return nil })
	defer then.Release()
	defer catch.Release()
	imp.Invoke("file://"+path).Call("then", then, catch)
	select {
	case m := <-done:
		return m
	case e := <-fail:
		t.Fatalf("import %s: %s", path, e.Call("toString").String())
	}
	return js.Value{}
}

// newFake returns a fake ctx.storage and the adapter over it.
func newFake(t testing.TB) (storage, adapter js.Value) {
	mod := importModule(t, edgePath(t, "src/storage.mjs"))
	fake := js.Global().Call("require", edgePath(t, "test/fakestorage.cjs"))
	storage = fake.Call("fakeStorage")
	return storage, mod.Call("kvStorage", storage)
}

func TestKV_Commit(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		_, adapter := newFake(t)
		kv := New(adapter)
		big := bytes.Repeat([]byte("0123456789abcdef"), 400_000) // 6.4 MB: parts over the 2 MiB limit
		puts := []kvlog.Entry{{Key: "head", Value: []byte("h")}, {Key: "log/1", Value: big}, {Key: "log/2", Value: nil}}
		if err := kv.Commit(puts, nil); err != nil {
			t.Fatal(err)
		}
		if v, err := kv.Get("log/1"); err != nil || !bytes.Equal(v, big) {
			t.Fatalf("Get(log/1) = %d bytes, %v", len(v), err)
		}
		var got []string
		kv.Scan("log/", func(k string, v []byte) error {
			got = append(got, fmt.Sprintf("%s:%d", k, len(v)))
			return nil
		})
		if strings.Join(got, ",") != "log/1:6400000,log/2:0" {
			t.Errorf("Scan = %v", got)
		}
	})
	t.Run("OKOverwriteDropsParts", func(t *testing.T) {
		storage, adapter := newFake(t)
		kv := New(adapter)
		kv.Commit([]kvlog.Entry{{Key: "k", Value: make([]byte, 3<<20)}}, nil)
		kv.Commit([]kvlog.Entry{{Key: "k", Value: []byte("small")}}, nil)
		if n := storage.Call("size").Int(); n != 1 {
			t.Errorf("%d keys stored, want 1: %v", n, storage.Call("keys"))
		}
		kv.Commit(nil, []string{"k"})
		if n := storage.Call("size").Int(); n != 0 {
			t.Errorf("%d keys stored after delete, want 0", n)
		}
	})
	t.Run("ErrStorage", func(t *testing.T) {
		storage, adapter := newFake(t)
		kv := New(adapter)
		kv.Commit([]kvlog.Entry{{Key: "a", Value: []byte("1")}}, nil)
		storage.Call("failAfter", 2)
		err := kv.Commit([]kvlog.Entry{{Key: "b", Value: []byte("2")}, {Key: "c", Value: []byte("3")}}, []string{"a"})
		if !errors.Is(err, ErrStorage) || !strings.Contains(err.Error(), "injected") {
			t.Fatalf("Commit = %v, want ErrStorage", err)
		}
		if keys := storage.Call("keys"); keys.Length() != 1 || keys.Index(0).String() != "a" {
			t.Errorf("a failed commit left %v, want only a", keys)
		}
	})
	t.Run("ErrBadKey", func(t *testing.T) {
		_, adapter := newFake(t)
		if err := New(adapter).Commit([]kvlog.Entry{{Key: "a\tb"}}, nil); !errors.Is(err, ErrBadKey) {
			t.Errorf("Commit = %v, want ErrBadKey", err)
		}
	})
}

func TestKV_Get(t *testing.T) {
	t.Run("OKMissing", func(t *testing.T) {
		_, adapter := newFake(t)
		if v, err := New(adapter).Get("nothing"); v != nil || err != nil {
			t.Errorf("Get = %v, %v", v, err)
		}
	})
}

func TestBackend(t *testing.T) {
	backendtest.Run(t, func(t *testing.T) func() core.Backend {
		_, adapter := newFake(t)
		return func() core.Backend { return kvlog.New(New(adapter)) }
	})
}

func BenchmarkKV_Commit(b *testing.B) {
	for _, n := range []int{100, 10_000, 1_000_000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			_, adapter := newFake(b)
			kv := New(adapter)
			v := make([]byte, n)
			b.SetBytes(int64(n))
			for i := 0; b.Loop(); i++ {
				if err := kv.Commit([]kvlog.Entry{{Key: fmt.Sprintf("log/%016x", i%64), Value: v}}, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
