package core

import (
	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/core/stored"
	"testing"
)

func TestTable_Codec(t *testing.T) {
	policies := []AccessPolicy{{ID: "a", Start: "s", Expiry: "e", Permission: "r"}, {ID: "b"}}
	t.Run("OK", func(t *testing.T) {
		for _, want := range []Table{
			{Name: "Things"},
			{Name: "Things", Policies: policies},
			{Name: "Things", Incarnation: model.Guid{1, 15: 0xff}},
			{Name: "Things", Policies: policies, Incarnation: model.NewGuid()},
		} {
			got, err := decodeTable(encodeTable(&want))
			if err != nil || got.Name != want.Name || got.Incarnation != want.Incarnation || len(got.Policies) != len(want.Policies) {
				t.Fatalf("round trip of %+v: %+v, %v", want, got, err)
			}
		}
	})
	t.Run("OK/BeforeIncarnations", func(t *testing.T) {
		// A record written before tables had an incarnation: the name, then the policies.
		old := string(stored.AppendString(stored.AppendString(stored.AppendString(stored.AppendString(stored.AppendString(nil, "Things"), "a"), "s"), "e"), "r"))
		got, err := decodeTable(old)
		if err != nil || got.Name != "Things" || got.Incarnation != (model.Guid{}) || len(got.Policies) != 1 || got.Policies[0] != policies[0] {
			t.Fatalf("decode = %+v, %v", got, err)
		}
	})
	t.Run("ErrCorrupt", func(t *testing.T) {
		for _, v := range []string{"\x00", "\x00" + string(make([]byte, 15))} {
			if _, err := decodeTable(v); err != stored.ErrCorrupt {
				t.Errorf("decode %q: %v, want errCorrupt", v, err)
			}
		}
	})
}

func FuzzDecodeTable(f *testing.F) {
	f.Add(encodeTable(&Table{Name: "Things"}))
	f.Add(encodeTable(&Table{Name: "Things", Policies: []AccessPolicy{{ID: "a", Permission: "r"}}, Incarnation: model.Guid{1, 15: 2}}))
	f.Add("\x00")
	f.Fuzz(func(t *testing.T, v string) {
		tb, err := decodeTable(v)
		if err != nil {
			return
		}
		again, err := decodeTable(encodeTable(tb))
		if err != nil || again.Name != tb.Name || again.Incarnation != tb.Incarnation || len(again.Policies) != len(tb.Policies) {
			t.Fatalf("%q decodes to %+v, which does not round-trip: %+v, %v", v, tb, again, err)
		}
	})
}
