package wire_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"

	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/core/query"
	"github.com/tabletopdb/tabletop/core/stored"
	"github.com/tabletopdb/tabletop/core/wire"
)

// FuzzDecodeEntity checks that the decoders never panic, accept only valid JSON, decode
// strings as encoding/json does, and that whatever DecodeEntity accepts survives
// AppendEntity and DecodeEntity again unchanged.
func FuzzDecodeEntity(f *testing.F) {
	for _, s := range []string{
		`{"PartitionKey":"p","RowKey":"r","S":"x","I":1,"D":1.5,"B":true}`,
		`{"PartitionKey":"p","RowKey":"r","L@odata.type":"Edm.Int64","L":"9007199254740993"}`,
		`{"PartitionKey":"p","RowKey":"r","L":"1","L@odata.type":"Edm.Int64","N":null}`,
		`{"PartitionKey":"p","RowKey":"r","D@odata.type":"Edm.Double","D":"NaN","E":-0.0,"F":1e21}`,
		`{"PartitionKey":"p","RowKey":"r","T@odata.type":"Edm.DateTime","T":"2013-08-02T17:37:43.0090043Z"}`,
		`{"PartitionKey":"p","RowKey":"r","G@odata.type":"Edm.Guid","G":"4185404a-5818-48c3-b9be-f217df0dba6f"}`,
		`{"PartitionKey":"p","RowKey":"r","B@odata.type":"Edm.Binary","B":"AQIDBA=="}`,
		`{"PartitionKey":"\ud83d\ude00","RowKey":"\u0000","\u00e9":"\ud800","odata.x":[{"a":[]}]}`,
		`{"TableName":"People"}`,
		`{"a":2147483648,"b":-2147483649,"c":1e400}`,
		"{\"PartitionKey\":\"\xff\",\"RowKey\":\"\\/\"}",
		`[1,2]`, `{"a":{}}`, `{"a":"\u12`, ``, `{"a":1}x`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkTableName(t, data)
		e, err := wire.DecodeEntity(data)
		if err != nil {
			if e != nil {
				t.Fatalf("entity %+v with error %v", e, err)
			}
			return
		}
		checkStdlib(t, data, e)
		c := &wire.Context{Metadata: wire.MinimalMetadata, BaseURL: "http://h/a", Account: "a", Table: "t"}
		out := wire.AppendEntity(nil, e, c)
		if !json.Valid(out) {
			t.Fatalf("invalid JSON written: %s", out)
		}
		again, err := wire.DecodeEntity(out)
		if err != nil || !sameEntity(again, e) {
			t.Fatalf("round trip: %v\n in:  %+v\n out: %+v\n via %s", err, e, again, out)
		}
		checkRecords(t, e)
	})
}

// checkStdlib compares a decoded entity with what encoding/json reads from the same body.
func checkStdlib(t *testing.T, data []byte, e *model.Entity) {
	if !json.Valid(data) {
		t.Fatalf("accepted invalid JSON %q", data)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatalf("encoding/json: %v", err)
	}
	if m[model.PartitionKeyName] != e.PartitionKey || m[model.RowKeyName] != e.RowKey {
		t.Fatalf("keys %q %q, encoding/json has %q %q", e.PartitionKey, e.RowKey, m["PartitionKey"], m["RowKey"])
	}
	for _, p := range e.Properties {
		if p.Value.Type() == model.TypeString && m[p.Name] != p.Value.Str() {
			t.Fatalf("%q = %q, encoding/json has %q", p.Name, p.Value.Str(), m[p.Name])
		}
	}
}

// refusedText reports whether msg is a refusal of JSON that encoding/json accepts by
// rewriting it: nesting deeper than the decoder allows, invalid UTF-8, a lone surrogate.
func refusedText(msg string) bool {
	return msg == "nesting too deep" || msg == "invalid UTF-8 in string" || msg == "unpaired surrogate in \\u escape"
}

// checkTableName checks DecodeTableName against encoding/json.
func checkTableName(t *testing.T, data []byte) {
	name, err := wire.DecodeTableName(data)
	var se *wire.SyntaxError
	switch {
	case err == nil && !json.Valid(data):
		t.Fatalf("DecodeTableName accepted invalid JSON %q", data)
	case errors.As(err, &se) && json.Valid(data) && !refusedText(se.Msg):
		t.Fatalf("DecodeTableName rejected valid JSON %q: %v", data, err)
	case err == nil:
		var m map[string]any
		if json.Unmarshal(data, &m) == nil && bytes.Count(data, []byte("TableName")) == 1 && m["TableName"] != name {
			t.Fatalf("TableName %q, encoding/json has %q", name, m["TableName"])
		}
	}
}

// checkRecords checks that a page written from stored records is byte for byte the page
// written from the decoded entity, at every metadata level, with and without $select.
func checkRecords(t *testing.T, e *model.Entity) {
	rs := []stored.Record{stored.NewRecord(e), stored.NewRecord(e)}
	es := []*model.Entity{e, e}
	names := []string{"RowKey", "Timestamp", "Absent"}
	for _, p := range e.Properties {
		names = append(names, p.Name)
	}
	for _, m := range []wire.Metadata{wire.NoMetadata, wire.MinimalMetadata, wire.FullMetadata} {
		sel := ctx(m)
		sel.Select = query.Selection(names[:min(len(names), 5)]) // as given: DecodeEntity accepts any name
		exact := ctx(m)
		exact.Exact = true // every type annotated, as the browser module asks
		for _, c := range []*wire.Context{ctx(m), sel, exact} {
			c.Table = "t"
			if a, b := wire.AppendRecords(nil, rs, c), wire.AppendEntities(nil, es, c); !bytes.Equal(a, b) {
				t.Fatalf("from records:\n%s\nfrom entities:\n%s", a, b)
			}
		}
	}
}
