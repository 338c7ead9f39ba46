package wire_test

import (
	"errors"
	"testing"

	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/core/wire"
)

func TestDecodePage(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		body := `{"odata.metadata":"x","tabletop.checkpoint":"cp","tabletop.more":true,
			"value":[{"odata.etag":"W/\"1\"","PartitionKey":"p","RowKey":"a","Timestamp":"2020-01-01T00:00:00Z","d":5.0,"i":5,"n@odata.type":"Edm.Int64","n":"9007199254740993"}],
			"tabletop.deleted":[{"PartitionKey":"p","RowKey":"b","Timestamp":"2020-01-01T00:00:00Z"}]}`
		p, err := wire.DecodePage([]byte(body))
		if err != nil {
			t.Fatal(err)
		}
		if !p.HasCheckpoint || p.Checkpoint != "cp" || !p.More || len(p.Entities) != 1 || len(p.Deleted) != 1 {
			t.Fatalf("page %+v", p)
		}
		e := p.Entities[0]
		if e.ETag != `W/"1"` || e.Entity.RowKey != "a" || p.Deleted[0] != (model.Key{PartitionKey: "p", RowKey: "b"}) {
			t.Fatalf("entity %+v", e)
		}
		want := map[string]model.Value{"d": model.DoubleValue(5), "i": model.Int32Value(5), "n": model.Int64Value(9007199254740993)}
		for _, prop := range e.Entity.Properties {
			if want[prop.Name] != prop.Value {
				t.Errorf("%s = %v", prop.Name, prop.Value)
			}
		}
	})
	t.Run("QueryResult", func(t *testing.T) {
		p, err := wire.DecodePage([]byte(`{"value":[]}`))
		if err != nil || p.HasCheckpoint || p.More || len(p.Entities) != 0 {
			t.Fatalf("page %+v, %v", p, err)
		}
	})
	for name, body := range map[string]string{
		"ErrNotObject":  `[1]`,
		"ErrValueArray": `{"value":{}}`,
		"ErrEntity":     `{"value":[{"PartitionKey":"p"}]}`,
		"ErrCheckpoint": `{"tabletop.checkpoint":5}`,
		"ErrTruncated":  `{"value":[{"PartitionKey":"p","RowKey":"a"}`,
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := wire.DecodePage([]byte(body)); err == nil {
				t.Fatal("no error")
			}
		})
	}
	t.Run("ErrKeyMissing", func(t *testing.T) {
		_, err := wire.DecodePage([]byte(`{"value":[{"PartitionKey":"p"}]}`))
		if !errors.Is(err, model.ErrKeyMissing) {
			t.Fatalf("err = %v", err)
		}
	})
}

func FuzzDecodePage(f *testing.F) {
	f.Add([]byte(`{"tabletop.checkpoint":"c","value":[{"odata.etag":"e","PartitionKey":"p","RowKey":"a","x":1.5}],"tabletop.deleted":[{"PartitionKey":"p","RowKey":"b"}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := wire.DecodePage(data)
		if err != nil {
			return
		}
		for _, e := range p.Entities {
			if e.Entity == nil {
				t.Fatal("nil entity without error")
			}
		}
	})
}
