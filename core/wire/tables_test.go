package wire_test

import (
	"testing"

	"github.com/tabletopdb/tabletop/core/wire"
)

func TestAppendTable(t *testing.T) {
	for _, tc := range []struct {
		m    wire.Metadata
		want string
	}{
		{wire.NoMetadata, `{"TableName":"People"}`},
		{wire.MinimalMetadata, `{"odata.metadata":"https://acct.table.core.windows.net/$metadata#Tables/@Element","TableName":"People"}`},
		{wire.FullMetadata, `{"odata.metadata":"https://acct.table.core.windows.net/$metadata#Tables/@Element",` +
			`"odata.type":"acct.Tables","odata.id":"https://acct.table.core.windows.net/Tables('People')",` +
			`"odata.editLink":"Tables('People')","TableName":"People"}`},
	} {
		if got := string(wire.AppendTable(nil, "People", ctx(tc.m))); got != tc.want {
			t.Errorf("%v:\ngot  %s\nwant %s", tc.m, got, tc.want)
		}
	}
}

func TestAppendTables(t *testing.T) {
	for _, tc := range []struct {
		m     wire.Metadata
		names []string
		want  string
	}{
		{wire.NoMetadata, nil, `{"value":[]}`},
		{wire.NoMetadata, []string{"a1", "b2"}, `{"value":[{"TableName":"a1"},{"TableName":"b2"}]}`},
		{wire.MinimalMetadata, []string{"a1", "b2"}, `{"odata.metadata":"https://acct.table.core.windows.net/$metadata#Tables",` +
			`"value":[{"TableName":"a1"},{"TableName":"b2"}]}`},
		{wire.FullMetadata, []string{"a1", "b2"}, `{"odata.metadata":"https://acct.table.core.windows.net/$metadata#Tables","value":[` +
			`{"odata.type":"acct.Tables","odata.id":"https://acct.table.core.windows.net/Tables('a1')","odata.editLink":"Tables('a1')","TableName":"a1"},` +
			`{"odata.type":"acct.Tables","odata.id":"https://acct.table.core.windows.net/Tables('b2')","odata.editLink":"Tables('b2')","TableName":"b2"}]}`},
	} {
		if got := string(wire.AppendTables(nil, tc.names, ctx(tc.m))); got != tc.want {
			t.Errorf("%v %v:\ngot  %s\nwant %s", tc.m, tc.names, got, tc.want)
		}
	}
}
