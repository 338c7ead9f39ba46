package wire_test

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/core/query"
	"github.com/tabletopdb/tabletop/core/wire"
)

const base = "https://acct.table.core.windows.net"

// ctx is a response context selecting sel as a $select lists them (nil: every property).
func ctx(m wire.Metadata, sel ...string) *wire.Context {
	c := &wire.Context{Metadata: m, BaseURL: base, Account: "acct", Table: "People"}
	if sel != nil {
		parsed, err := query.ParseSelect(strings.Join(sel, ","))
		if err != nil {
			panic(err)
		}
		c.Select = parsed
	}
	return c
}

func TestAppendEntity(t *testing.T) {
	e := allTypes(t)
	for _, tc := range []struct {
		name string
		c    *wire.Context
		want string
	}{
		{"NoMetadata", ctx(wire.NoMetadata), `{"PartitionKey":"p1","RowKey":"r'1","Timestamp":"2021-08-31T15:40:49.6724407Z",` +
			`"Str":"a\"b\\c\n\u0001é😀","Bin":"AQIDBA==","Bool":true,"When":"2013-08-02T17:37:43.0090043Z","Dbl":5.0,` +
			`"Frac":1234.1234,"Nan":"NaN","Id":"4185404a-5818-48c3-b9be-f217df0dba6f","I32":1234,"I64":"123456789012"}`},
		{"MinimalMetadata", ctx(wire.MinimalMetadata), `{"odata.metadata":"https://acct.table.core.windows.net/$metadata#People/@Element",` +
			`"odata.etag":"W/\"datetime'2021-08-31T15%3A40%3A49.6724407Z'\"","PartitionKey":"p1","RowKey":"r'1",` +
			`"Timestamp":"2021-08-31T15:40:49.6724407Z","Str":"a\"b\\c\n\u0001é😀","Bin@odata.type":"Edm.Binary","Bin":"AQIDBA==",` +
			`"Bool":true,"When@odata.type":"Edm.DateTime","When":"2013-08-02T17:37:43.0090043Z","Dbl":5.0,"Frac":1234.1234,` +
			`"Nan@odata.type":"Edm.Double","Nan":"NaN","Id@odata.type":"Edm.Guid","Id":"4185404a-5818-48c3-b9be-f217df0dba6f",` +
			`"I32":1234,"I64@odata.type":"Edm.Int64","I64":"123456789012"}`},
		{"FullMetadata", ctx(wire.FullMetadata), `{"odata.metadata":"https://acct.table.core.windows.net/$metadata#People/@Element",` +
			`"odata.type":"acct.People","odata.id":"https://acct.table.core.windows.net/People(PartitionKey='p1',RowKey='r''1')",` +
			`"odata.etag":"W/\"datetime'2021-08-31T15%3A40%3A49.6724407Z'\"","odata.editLink":"People(PartitionKey='p1',RowKey='r''1')",` +
			`"PartitionKey":"p1","RowKey":"r'1","Timestamp@odata.type":"Edm.DateTime","Timestamp":"2021-08-31T15:40:49.6724407Z",` +
			`"Str":"a\"b\\c\n\u0001é😀","Bin@odata.type":"Edm.Binary","Bin":"AQIDBA==","Bool":true,` +
			`"When@odata.type":"Edm.DateTime","When":"2013-08-02T17:37:43.0090043Z","Dbl":5.0,"Frac":1234.1234,` +
			`"Nan@odata.type":"Edm.Double","Nan":"NaN","Id@odata.type":"Edm.Guid","Id":"4185404a-5818-48c3-b9be-f217df0dba6f",` +
			`"I32":1234,"I64@odata.type":"Edm.Int64","I64":"123456789012"}`},
		{"Exact", &wire.Context{Exact: true}, `{"PartitionKey":"p1","RowKey":"r'1","Timestamp@odata.type":"Edm.DateTime","Timestamp":"2021-08-31T15:40:49.6724407Z",` +
			`"Str":"a\"b\\c\n\u0001é😀","Bin@odata.type":"Edm.Binary","Bin":"AQIDBA==","Bool":true,` +
			`"When@odata.type":"Edm.DateTime","When":"2013-08-02T17:37:43.0090043Z","Dbl@odata.type":"Edm.Double","Dbl":5.0,` +
			`"Frac@odata.type":"Edm.Double","Frac":1234.1234,"Nan@odata.type":"Edm.Double","Nan":"NaN",` +
			`"Id@odata.type":"Edm.Guid","Id":"4185404a-5818-48c3-b9be-f217df0dba6f","I32@odata.type":"Edm.Int32","I32":1234,` +
			`"I64@odata.type":"Edm.Int64","I64":"123456789012"}`},
		{"ExactMinimalSelect", &wire.Context{Exact: true, Metadata: wire.MinimalMetadata, Select: []string{"Dbl", "Str"}}, `{"odata.metadata":"/$metadata#/@Element",` +
			`"odata.etag":"W/\"datetime'2021-08-31T15%3A40%3A49.6724407Z'\"","Dbl@odata.type":"Edm.Double","Dbl":5.0,"Str":"a\"b\\c\n\u0001é😀"}`},
		{"Select", ctx(wire.MinimalMetadata, "I32", "RowKey", "Missing", "I64", "I32"), `{"odata.metadata":"https://acct.table.core.windows.net/$metadata#People/@Element",` +
			`"odata.etag":"W/\"datetime'2021-08-31T15%3A40%3A49.6724407Z'\"","RowKey":"r'1","I32":1234,"Missing":null,` +
			`"I64@odata.type":"Edm.Int64","I64":"123456789012"}`},
		{"SelectNothing", ctx(wire.NoMetadata, "Missing"), `{"Missing":null}`},
		{"SelectEmpty", &wire.Context{Select: []string{}}, `{}`},
		{"SelectFullTimestamp", ctx(wire.FullMetadata, "Timestamp"), `{"odata.metadata":"https://acct.table.core.windows.net/$metadata#People/@Element",` +
			`"odata.type":"acct.People","odata.id":"https://acct.table.core.windows.net/People(PartitionKey='p1',RowKey='r''1')",` +
			`"odata.etag":"W/\"datetime'2021-08-31T15%3A40%3A49.6724407Z'\"","odata.editLink":"People(PartitionKey='p1',RowKey='r''1')",` +
			`"Timestamp@odata.type":"Edm.DateTime","Timestamp":"2021-08-31T15:40:49.6724407Z"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := string(wire.AppendEntity(nil, e, tc.c))
			if got != tc.want {
				t.Fatalf("got\n%s\nwant\n%s", got, tc.want)
			}
			if !json.Valid([]byte(got)) {
				t.Fatal("not valid JSON")
			}
		})
	}
	t.Run("Appends", func(t *testing.T) {
		got := string(wire.AppendEntity([]byte("x"), &model.Entity{}, ctx(wire.NoMetadata)))
		if want := `x{"PartitionKey":"","RowKey":"","Timestamp":"0001-01-01T00:00:00.0000000Z"}`; got != want {
			t.Fatalf("got %s want %s", got, want)
		}
	})
	t.Run("ETag", func(t *testing.T) {
		var v struct {
			ETag string `json:"odata.etag"`
		}
		if err := json.Unmarshal(wire.AppendEntity(nil, e, ctx(wire.MinimalMetadata)), &v); err != nil || v.ETag != e.ETag() {
			t.Fatalf("odata.etag = %q (%v), want %q", v.ETag, err, e.ETag())
		}
	})
}

func TestAppendEntities(t *testing.T) {
	e1 := &model.Entity{PartitionKey: "p", RowKey: "1", Timestamp: mustDateTime(t, "2021-08-31T15:40:49.6724407Z"),
		Properties: []model.Property{prop("N", model.Int64Value(-9007199254740993))}}
	e2 := &model.Entity{PartitionKey: "p", RowKey: "2", Timestamp: mustDateTime(t, "2021-08-31T15:40:50Z")}
	for _, tc := range []struct {
		name string
		m    wire.Metadata
		es   []*model.Entity
		want string
	}{
		{"Empty", wire.MinimalMetadata, nil, `{"odata.metadata":"https://acct.table.core.windows.net/$metadata#People","value":[]}`},
		{"EmptyNoMetadata", wire.NoMetadata, nil, `{"value":[]}`},
		{"NoMetadata", wire.NoMetadata, []*model.Entity{e1, e2}, `{"value":[` +
			`{"PartitionKey":"p","RowKey":"1","Timestamp":"2021-08-31T15:40:49.6724407Z","N":"-9007199254740993"},` +
			`{"PartitionKey":"p","RowKey":"2","Timestamp":"2021-08-31T15:40:50.0000000Z"}]}`},
		{"MinimalMetadata", wire.MinimalMetadata, []*model.Entity{e1, e2}, `{"odata.metadata":"https://acct.table.core.windows.net/$metadata#People","value":[` +
			`{"odata.etag":"W/\"datetime'2021-08-31T15%3A40%3A49.6724407Z'\"","PartitionKey":"p","RowKey":"1",` +
			`"Timestamp":"2021-08-31T15:40:49.6724407Z","N@odata.type":"Edm.Int64","N":"-9007199254740993"},` +
			`{"odata.etag":"W/\"datetime'2021-08-31T15%3A40%3A50.0000000Z'\"","PartitionKey":"p","RowKey":"2",` +
			`"Timestamp":"2021-08-31T15:40:50.0000000Z"}]}`},
		{"FullMetadata", wire.FullMetadata, []*model.Entity{e2}, `{"odata.metadata":"https://acct.table.core.windows.net/$metadata#People","value":[` +
			`{"odata.type":"acct.People","odata.id":"https://acct.table.core.windows.net/People(PartitionKey='p',RowKey='2')",` +
			`"odata.etag":"W/\"datetime'2021-08-31T15%3A40%3A50.0000000Z'\"","odata.editLink":"People(PartitionKey='p',RowKey='2')",` +
			`"PartitionKey":"p","RowKey":"2","Timestamp@odata.type":"Edm.DateTime","Timestamp":"2021-08-31T15:40:50.0000000Z"}]}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := string(wire.AppendEntities(nil, tc.es, ctx(tc.m))); got != tc.want {
				t.Fatalf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

// TestAppendEntity_Values checks the JSON form of each value at minimal metadata.
func TestAppendEntity_Values(t *testing.T) {
	for _, tc := range []struct {
		v    model.Value
		want string // the members after Timestamp
	}{
		{model.StringValue(""), `"P":""`},
		{model.StringValue("tab\there\r\n\x00\x1f\x7f"), `"P":"tab\there\r\n\u0000\u001f` + "\x7f" + `"`},
		{model.StringValue("\u2028\u2029 ü \U0001F600"), `"P":"\u2028\u2029 ü 😀"`},
		{model.StringValue("bad\xffutf8"), `"P":"bad` + "\ufffd" + `utf8"`},
		{model.StringValue(`</script>&`), `"P":"</script>&"`},
		{model.BinaryValue(nil), `"P@odata.type":"Edm.Binary","P":""`},
		{model.BinaryValue([]byte{0xfb, 0xff}), `"P@odata.type":"Edm.Binary","P":"+/8="`},
		{model.BoolValue(false), `"P":false`},
		{model.DateTimeValue(model.MinDateTime), `"P@odata.type":"Edm.DateTime","P":"1601-01-01T00:00:00.0000000Z"`},
		{model.DateTimeValue(model.MaxDateTime), `"P@odata.type":"Edm.DateTime","P":"9999-12-31T23:59:59.9999999Z"`},
		{model.DoubleValue(0), `"P":0.0`},
		{model.DoubleValue(math.Copysign(0, -1)), `"P":-0.0`},
		{model.DoubleValue(-5), `"P":-5.0`},
		{model.DoubleValue(0.1), `"P":0.1`},
		{model.DoubleValue(1e20), `"P":100000000000000000000.0`},
		{model.DoubleValue(1e21), `"P":1e+21`},
		{model.DoubleValue(1.5e300), `"P":1.5e+300`},
		{model.DoubleValue(0.000001), `"P":0.000001`},
		{model.DoubleValue(1.5e-7), `"P":1.5e-07`},
		{model.DoubleValue(math.SmallestNonzeroFloat64), `"P":5e-324`},
		{model.DoubleValue(math.MaxFloat64), `"P":1.7976931348623157e+308`},
		{model.DoubleValue(math.Inf(1)), `"P@odata.type":"Edm.Double","P":"Infinity"`},
		{model.DoubleValue(math.Inf(-1)), `"P@odata.type":"Edm.Double","P":"-Infinity"`},
		{model.GuidValue(model.Guid{0xff, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 0xab}), `"P@odata.type":"Edm.Guid","P":"ff010203-0405-0607-0809-0a0b0c0d0eab"`},
		{model.Int32Value(math.MinInt32), `"P":-2147483648`},
		{model.Int64Value(math.MaxInt64), `"P@odata.type":"Edm.Int64","P":"9223372036854775807"`},
		{model.Int64Value(math.MinInt64), `"P@odata.type":"Edm.Int64","P":"-9223372036854775808"`},
	} {
		e := &model.Entity{Properties: []model.Property{prop("P", tc.v)}}
		got := string(wire.AppendEntity(nil, e, &wire.Context{Metadata: wire.MinimalMetadata, Select: []string{"P"}}))
		want := `{"odata.metadata":"/$metadata#/@Element","odata.etag":"W/\"datetime'0001-01-01T00%3A00%3A00.0000000Z'\"",` + tc.want + `}`
		if got != want {
			t.Errorf("%v %q:\ngot  %s\nwant %s", tc.v.Type(), tc.v.Text(), got, want)
		}
		if !json.Valid([]byte(got)) {
			t.Errorf("%s: not valid JSON", got)
		}
	}
}

func TestAppendRecords(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		e := allTypes(t)
		checkRecords(t, e)
		checkRecords(t, &model.Entity{PartitionKey: "p'q", RowKey: "\u2028", Timestamp: e.Timestamp})
	})
	t.Run("Empty", func(t *testing.T) {
		c := ctx(wire.MinimalMetadata)
		if a, b := wire.AppendRecords(nil, nil, c), wire.AppendEntities(nil, nil, c); !bytes.Equal(a, b) {
			t.Fatalf("%s != %s", a, b)
		}
	})
}

func TestAppendKeyPredicate(t *testing.T) {
	for _, tc := range []struct{ pk, rk, want string }{
		{"p", "r", `t(PartitionKey='p',RowKey='r')`},
		{"", "", `t(PartitionKey='',RowKey='')`},
		{"it's", "''", `t(PartitionKey='it''s',RowKey='''''')`},
		{"a b%c\"", "ü€", `t(PartitionKey='a%20b%25c%22',RowKey='%C3%BC%E2%82%AC')`},
		{"-._~!$&()*+,;=:@", "<>[]^`{|}", "t(PartitionKey='-._~!$&()*+,;=:@',RowKey='%3C%3E%5B%5D%5E%60%7B%7C%7D')"},
	} {
		if got := string(wire.AppendKeyPredicate(nil, "t", tc.pk, tc.rk)); got != tc.want {
			t.Errorf("AppendKeyPredicate(%q, %q) = %s, want %s", tc.pk, tc.rk, got, tc.want)
		}
	}
}
