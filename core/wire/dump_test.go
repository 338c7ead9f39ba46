package wire_test

import (
	"testing"

	"github.com/tabletopdb/tabletop/core/wire"
)

func TestDecodeDumpHeader(t *testing.T) {
	for _, tc := range []struct {
		name, line string
		want       wire.DumpHeader
		ok         bool
	}{
		{"OK", string(wire.AppendDumpHeader(nil, `pe"ople`)), wire.DumpHeader{Version: 1, Table: `pe"ople`}, true},
		{"AnyOrderUnknownMembers", `{"x":{"y":[1,{"z":null}]},"table":"t","version":2,"format":"tabletop-dump"}`, wire.DumpHeader{Version: 2, Table: "t"}, true},
		{"Entity", `{"PartitionKey":"p","RowKey":"r","format":"other"}`, wire.DumpHeader{}, false},
		{"NoVersion", `{"format":"tabletop-dump","table":"t","version":"1"}`, wire.DumpHeader{Table: "t"}, true},
		{"FractionalVersion", `{"format":"tabletop-dump","table":"t","version":1.5}`, wire.DumpHeader{Table: "t"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, ok, err := wire.DecodeDumpHeader([]byte(tc.line))
			if err != nil || ok != tc.ok || (ok && h != tc.want) {
				t.Fatalf("DecodeDumpHeader = %+v, %v, %v", h, ok, err)
			}
		})
	}
	t.Run("ErrJSONInvalid", func(t *testing.T) {
		if _, _, err := wire.DecodeDumpHeader([]byte(`{"format":`)); err == nil {
			t.Fatal("no error")
		}
	})
}

func FuzzDecodeDumpHeader(f *testing.F) {
	f.Add([]byte(`{"format":"tabletop-dump","version":1,"table":"people"}`))
	f.Add([]byte(`{"a":[{"b":[]}],"format":"x"}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		h, ok, err := wire.DecodeDumpHeader(line)
		if err == nil && ok {
			again, ok2, err2 := wire.DecodeDumpHeader(wire.AppendDumpHeader(nil, h.Table))
			if err2 != nil || !ok2 || again.Table != h.Table {
				t.Fatalf("header of %q does not round-trip: %+v %v", h.Table, again, err2)
			}
		}
	})
}
