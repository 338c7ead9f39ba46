//go:build js && wasm

package object

import (
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall/js"
	"testing"
	"time"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/worker/edge/bridge"
	"github.com/tabletopdb/tabletop/worker/rest/auth"
)

// newStorage returns the real storage adapter (edge/src/storage.mjs) over the fake
// ctx.storage of edge/test/fakestorage.cjs, in Node.
func newStorage(t *testing.T) js.Value {
	wd, _ := os.Getwd()
	imp := js.Global().Get("Function").New("p", "return import(p)")
	done := make(chan js.Value, 1)
	then := js.FuncOf(func(_ js.Value, a []js.Value) any { done <- a[0]; return nil })
	defer then.Release()
	imp.Invoke("file://"+filepath.Join(wd, "..", "src", "storage.mjs")).Call("then", then)
	mod := <-done
	fake := js.Global().Call("require", filepath.Join(wd, "..", "test", "fakestorage.cjs"))
	return mod.Call("kvStorage", fake.Call("fakeStorage"))
}

func TestObject_Internal(t *testing.T) {
	storage := newStorage(t)
	o, err := Open(auth.DevAccount(), storage, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	t.Run("OK", func(t *testing.T) {
		for _, step := range []struct{ op, arg, want string }{
			{"tableName", "people", ""},
			{"ensureTable", "People", ""},
			{"ensureTable", "PEOPLE", ""}, // already there: kept as created
			{"tableName", "people", "People"},
			{"properties", "", ""},
			{"setProperties", "<StorageServiceProperties/>", ""},
			{"properties", "", ""}, // a table object's copy is for CORS, in memory: never stored
			{"dropTable", "people", ""},
			{"dropTable", "people", ""}, // gone already: fine
			{"tableName", "People", ""},
		} {
			if got, err := o.Internal(step.op, step.arg); err != nil || got != step.want {
				t.Fatalf("%s(%q) = %q, %v; want %q", step.op, step.arg, got, err, step.want)
			}
		}
	})
	t.Run("OKReopen", func(t *testing.T) {
		o.Internal("ensureTable", "Kept")
		again, err := Open(auth.DevAccount(), storage, time.Hour)
		if err != nil {
			t.Fatal(err)
		}
		if got, _ := again.Internal("tableName", "kept"); got != "Kept" {
			t.Errorf("after reopening, tableName = %q", got)
		}
	})
	t.Run("ErrUnknownOp", func(t *testing.T) {
		if _, err := o.Internal("format", ""); !errors.Is(err, ErrUnknownOp) {
			t.Errorf("internal(format) = %v", err)
		}
	})
}

func TestObject_Serve(t *testing.T) {
	o, err := Open(auth.DevAccount(), newStorage(t), time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	t.Run("OK", func(t *testing.T) {
		// Unsigned: the handler runs its full chain, authentication included.
		head, body := bridge.Serve(o.handler, "GET http://127.0.0.1/devstoreaccount1/Tables\n", nil, nil)
		if !strings.HasPrefix(head, "403\n") || !strings.Contains(string(body), "AuthenticationFailed") {
			t.Errorf("unsigned Query Tables = %q %q", head, body)
		}
	})
	t.Run("OKFrame", func(t *testing.T) {
		head := "GET http://127.0.0.1/nobody/Tables\n"
		out := o.ServeFrame([]byte("x"), []byte(head), len(head))
		n := int(binary.LittleEndian.Uint32(out[1:]))
		if got := string(out[1+bridge.HeadLenSize : 1+bridge.HeadLenSize+n]); out[0] != 'x' || !strings.HasPrefix(got, "4") {
			t.Errorf("request for an unknown account = %q", got)
		}
		if !strings.Contains(o.Stats(), `"served":1`) {
			t.Errorf("stats = %s", o.Stats())
		}
	})
}

// TestObject_DeletionRetention: an object keeps deletion records for the retention it is
// opened with, across reopening, and drops them when reopened with none.
func TestObject_DeletionRetention(t *testing.T) {
	storage := newStorage(t)
	deletions := func(o *Object) int {
		n := 0
		err := o.pages.Run(o.store, func() error {
			n = 0
			return o.store.View(func(tx *core.Tx) error {
				return tx.Changes("gone", core.Checkpoint{}, func(c core.Change) bool {
					if c.Deleted() {
						n++
					}
					return true
				})
			})
		})
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	o, err := Open(auth.DevAccount(), storage, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	e := &model.Entity{PartitionKey: "p", RowKey: "r"}
	err = o.pages.Run(o.store, func() error {
		if _, err := o.store.CreateTable("gone"); err != nil && !errors.Is(err, core.ErrTableExists) {
			return err
		}
		if _, err := o.store.Apply("gone", core.Op{Kind: core.OpInsertOrReplace, Entity: e}); err != nil {
			return err
		}
		_, err := o.store.Apply("gone", core.Op{Kind: core.OpDelete, Entity: e, IfMatch: "*"})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	o.store.Close()
	// The store's clock issues strictly increasing Timestamps, a few ticks ahead of a
	// wall clock that js/wasm reads to the millisecond: let the wall clock pass the
	// deletion's Timestamp, or a retention of 0 would rightly keep it.
	time.Sleep(2 * time.Millisecond)
	for _, step := range []struct {
		retention time.Duration
		want      int
	}{{time.Hour, 1}, {0, 0}} {
		o, err := Open(auth.DevAccount(), storage, step.retention)
		if err != nil {
			t.Fatal(err)
		}
		if got := deletions(o); got != step.want {
			t.Fatalf("retention %v: %d deletion records, want %d", step.retention, got, step.want)
		}
		o.store.Close()
	}
}
