package kvlog_test

import (
	"errors"
	"fmt"
	"maps"
	"strings"
	"testing"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/backend/kvlog"
	"github.com/tabletopdb/tabletop/core/backend/memory"
	"github.com/tabletopdb/tabletop/core/model"
)

// filled returns a KV holding a store with a snapshot of 10 rows and a log of 10 more.
func filled(t *testing.T) *memory.KV {
	t.Helper()
	kv := memory.NewKV()
	s, err := core.Open(core.Options{Backend: kvlog.New(kv), CompactAfter: 1 << 30})
	if err != nil {
		t.Fatal(err)
	}
	s.CreateTable("dmg")
	for i := range 20 {
		if i == 10 {
			if err := s.Compact(); err != nil {
				t.Fatal(err)
			}
		}
		e := &model.Entity{PartitionKey: "p", RowKey: fmt.Sprint(i)}
		if _, err := s.Apply("dmg", core.Op{Kind: core.OpInsert, Entity: e}); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	return kv
}

// toLegacy rewrites the pages of the store in kv as a snapshot written before pages: one
// chunk, snap/{gen}/00000000, and no directory.
func toLegacy(kv *memory.KV) {
	var data []byte
	var pages []string
	kv.Scan("page/", func(k string, v []byte) error { data, pages = append(data, v...), append(pages, k); return nil })
	head, _ := kv.Get("head")
	f := strings.Fields(string(head))
	var gen uint64
	fmt.Sscan(f[0], &gen)
	kv.Commit([]kvlog.Entry{
		{Key: fmt.Sprintf("snap/%016x/00000000", gen), Value: data},
		{Key: "head", Value: []byte(f[0] + " 1 " + f[2] + " " + f[3])},
	}, append(pages, "pages"))
}

// contents is every key and value of kv.
func contents(kv *memory.KV) map[string]string {
	m := map[string]string{}
	kv.Scan("", func(k string, v []byte) error { m[k] = string(v); return nil })
	return m
}

// keyWith returns the n-th key of kv that starts with prefix.
func keyWith(kv *memory.KV, prefix string, n int) string {
	var keys []string
	kv.Scan(prefix, func(k string, _ []byte) error { keys = append(keys, k); return nil })
	return keys[n]
}

func TestBackend_Damage(t *testing.T) {
	cases := map[string]func(kv *memory.KV) (key string){
		"MissingLogRecord": func(kv *memory.KV) string {
			k := keyWith(kv, "log/", 4)
			kv.Commit(nil, []string{k})
			return k
		},
		"MissingLastLogRecord": func(kv *memory.KV) string {
			k := keyWith(kv, "log/", 9)
			kv.Commit(nil, []string{k})
			return k
		},
		"RecordPastTheHead": func(kv *memory.KV) string {
			kv.Commit([]kvlog.Entry{{Key: "log/00000000000000ff", Value: []byte("*0\r\n")}}, nil)
			return "log/00000000000000ff"
		},
		"LogRecordThatDoesNotReplay": func(kv *memory.KV) string {
			k := keyWith(kv, "log/", 3)
			v, _ := kv.Get(k)
			kv.Commit([]kvlog.Entry{{Key: k, Value: []byte(strings.Replace(string(v), "$", "#", 1))}}, nil)
			return k
		},
		"MissingPage": func(kv *memory.KV) string {
			k := keyWith(kv, "page/", 0)
			kv.Commit(nil, []string{k})
			return k
		},
		"PageThatDoesNotReplay": func(kv *memory.KV) string {
			k := keyWith(kv, "page/", 0)
			v, _ := kv.Get(k)
			kv.Commit([]kvlog.Entry{{Key: k, Value: v[:len(v)/2]}}, nil)
			return k
		},
		"DirectoryThatDoesNotParse": func(kv *memory.KV) string {
			kv.Commit([]kvlog.Entry{{Key: "pages", Value: []byte{0x80}}}, nil)
			return "pages"
		},
		"MissingLegacySnapshotChunk": func(kv *memory.KV) string {
			toLegacy(kv)
			k := keyWith(kv, "snap/", 0)
			kv.Commit(nil, []string{k})
			return "snap/"
		},
		"LegacySnapshotThatDoesNotReplay": func(kv *memory.KV) string {
			toLegacy(kv)
			k := keyWith(kv, "snap/", 0)
			v, _ := kv.Get(k)
			kv.Commit([]kvlog.Entry{{Key: k, Value: v[:len(v)/2]}}, nil)
			return "snap/"
		},
		"HeadThatDoesNotParse": func(kv *memory.KV) string {
			kv.Commit([]kvlog.Entry{{Key: "head", Value: []byte("1 x 3 4")}}, nil)
			return "head"
		},
	}
	for name, damage := range cases {
		t.Run(name, func(t *testing.T) {
			kv := filled(t)
			key := damage(kv)
			before := contents(kv)
			_, err := core.Open(core.Options{Backend: kvlog.New(kv)})
			var de *kvlog.DamageError
			if !errors.Is(err, kvlog.ErrDamaged) || !errors.As(err, &de) || !strings.HasPrefix(de.Key, key) {
				t.Fatalf("open: %v, want a DamageError at %s", err, key)
			}
			if !maps.Equal(contents(kv), before) {
				t.Fatal("the refused open changed what is stored")
			}
		})
	}
}
