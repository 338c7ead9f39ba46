package typedjson_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/goccy/go-json/jsontext"
	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/worker/native/transfer/transfertest"
	"github.com/tabletopdb/tabletop/worker/native/transfer/typedjson"
)

func TestWriteEntity(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		want := transfertest.EdgeEntities()
		want[0].Timestamp = model.MaxDateTime
		var buf bytes.Buffer
		enc := jsontext.NewEncoder(&buf)
		for _, e := range want {
			if err := typedjson.WriteEntity(enc, e); err != nil {
				t.Fatal(err)
			}
		}
		if n := strings.Count(buf.String(), "\n"); n != len(want) {
			t.Fatalf("%d lines, want %d", n, len(want))
		}
		dec := jsontext.NewDecoder(&buf)
		var got []*model.Entity
		for dec.PeekKind() != 0 {
			e, err := typedjson.ReadEntity(dec)
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, e)
		}
		if d := transfertest.Diff(want, got, true); d != "" {
			t.Fatal(d)
		}
	})
	t.Run("Annotations", func(t *testing.T) {
		e := &model.Entity{PartitionKey: "p", RowKey: "r", Properties: []model.Property{
			{Name: "W", Value: model.DoubleValue(5)},
			{Name: "B", Value: model.Int64Value(1<<53 + 1)},
			{Name: "S", Value: model.StringValue("x")},
		}}
		var buf bytes.Buffer
		if err := typedjson.WriteEntity(jsontext.NewEncoder(&buf), e); err != nil {
			t.Fatal(err)
		}
		want := `{"PartitionKey":"p","RowKey":"r","W@odata.type":"Edm.Double","W":5.0,"B@odata.type":"Edm.Int64","B":"9007199254740993","S":"x"}` + "\n"
		if buf.String() != want {
			t.Fatalf("got  %s\nwant %s", buf.String(), want)
		}
	})
}

func TestReadEntity(t *testing.T) {
	for _, tc := range []struct {
		name, json string
		want       model.Value
	}{
		{"OK/AnnotationAfter", `{"PartitionKey":"p","RowKey":"r","X":"5","X@odata.type":"Edm.Int64"}`, model.Int64Value(5)},
		{"OK/UntypedInt32", `{"PartitionKey":"p","RowKey":"r","X":7}`, model.Int32Value(7)},
		{"OK/UntypedDouble", `{"PartitionKey":"p","RowKey":"r","X":7.0}`, model.DoubleValue(7)},
		{"OK/BeyondInt32", `{"PartitionKey":"p","RowKey":"r","X":2147483648}`, model.DoubleValue(2147483648)},
		{"OK/ODataSkipped", `{"odata.etag":"W/x","PartitionKey":"p","RowKey":"r","X":true}`, model.BoolValue(true)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e, err := typedjson.ReadEntity(jsontext.NewDecoder(strings.NewReader(tc.json)))
			if err != nil {
				t.Fatal(err)
			}
			if v, _ := e.Get("X"); v != tc.want || e.PartitionKey != "p" || e.RowKey != "r" {
				t.Fatalf("got %+v", e)
			}
		})
	}
	for _, tc := range []struct {
		name, json string
		want       error
	}{
		{"ErrValueInvalid/Int64", `{"PartitionKey":"p","RowKey":"r","X@odata.type":"Edm.Int64","X":"12x"}`, model.ErrValueInvalid},
		{"ErrValueInvalid/Int32AsBool", `{"PartitionKey":"p","RowKey":"r","X@odata.type":"Edm.Int32","X":true}`, model.ErrValueInvalid},
		{"ErrValueOutOfRange", `{"PartitionKey":"p","RowKey":"r","X@odata.type":"Edm.Int32","X":2147483648}`, model.ErrValueOutOfRange},
		{"ErrTypeUnknown", `{"PartitionKey":"p","RowKey":"r","X@odata.type":"Edm.Decimal","X":"1"}`, model.ErrTypeUnknown},
		{"ErrValueKind", `{"PartitionKey":"p","RowKey":"r","X":[1]}`, typedjson.ErrValueKind},
		{"ErrNotObject", `[1]`, typedjson.ErrNotObject},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := typedjson.ReadEntity(jsontext.NewDecoder(strings.NewReader(tc.json)))
			if !errors.Is(err, tc.want) {
				t.Fatalf("err = %v, want %v", err, tc.want)
			}
			if tc.want != typedjson.ErrNotObject && !strings.Contains(err.Error(), "X") {
				t.Fatalf("error %q does not name the property", err)
			}
		})
	}
}
