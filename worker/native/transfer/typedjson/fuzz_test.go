package typedjson_test

import (
	"bytes"
	"testing"

	"github.com/goccy/go-json/jsontext"
	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/worker/native/transfer/transfertest"
	"github.com/tabletopdb/tabletop/worker/native/transfer/typedjson"
)

// FuzzReadEntity: whatever ReadEntity accepts, WriteEntity writes so that it reads back
// the same.
func FuzzReadEntity(f *testing.F) {
	for _, e := range transfertest.EdgeEntities() {
		var buf bytes.Buffer
		if err := typedjson.WriteEntity(jsontext.NewEncoder(&buf), e); err != nil {
			f.Fatal(err)
		}
		f.Add(buf.Bytes())
	}
	f.Add([]byte(`{"PartitionKey":"p","RowKey":"r","X":1,"Y":2.5,"Z@odata.type":"Edm.Int64","Z":"7","odata.etag":"x"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		e, err := typedjson.ReadEntity(jsontext.NewDecoder(bytes.NewReader(data)))
		if err != nil {
			return
		}
		var buf bytes.Buffer
		if err := typedjson.WriteEntity(jsontext.NewEncoder(&buf), e); err != nil {
			t.Fatalf("write %+v: %v", e, err)
		}
		back, err := typedjson.ReadEntity(jsontext.NewDecoder(&buf))
		if err != nil {
			t.Fatalf("read back %s: %v", buf.String(), err)
		}
		if d := transfertest.Diff([]*model.Entity{e}, []*model.Entity{back}, true); d != "" {
			t.Fatalf("%s\n%s", buf.String(), d)
		}
	})
}
