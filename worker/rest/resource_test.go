package rest

import (
	"errors"
	"strings"
	"testing"
)

func TestParseResource(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		for _, tc := range []struct {
			path string
			want resource
		}{
			{"", resource{kind: kindService}},
			{"/", resource{kind: kindService}},
			{"/Tables", resource{kind: kindTables}},
			{"/Tables()", resource{kind: kindTables}},
			{"/Tables('t1')", resource{kind: kindTable, table: "t1"}},
			{"/$batch", resource{kind: kindBatch}},
			{"/t1", resource{kind: kindEntities, table: "t1"}},
			{"/t1()", resource{kind: kindEntities, table: "t1"}},
			{"/t1(PartitionKey='p',RowKey='r')", resource{kind: kindEntity, table: "t1", partitionKey: "p", rowKey: "r"}},
			{"/t1(PartitionKey='',RowKey='')", resource{kind: kindEntity, table: "t1"}},
			{"/t1(PartitionKey='it''s', RowKey='a,b)c')", resource{kind: kindEntity, table: "t1", partitionKey: "it's", rowKey: "a,b)c"}},
			{"/t1( RowKey = 'r' , PartitionKey = 'p' )", resource{kind: kindEntity, table: "t1", partitionKey: "p", rowKey: "r"}},
			{"/t1(PartitionKey='a/b',RowKey='r')", resource{kind: kindEntity, table: "t1", partitionKey: "a/b", rowKey: "r"}},
		} {
			got, err := parseResource(tc.path)
			if err != nil || got != tc.want {
				t.Errorf("parseResource(%q) = %+v, %v; want %+v", tc.path, got, err, tc.want)
			}
		}
	})
	t.Run("ErrBadURI", func(t *testing.T) {
		for _, path := range []string{
			"/a/b", "/t1(", "/t1(PartitionKey='p')", "/t1(PartitionKey='p',RowKey='r'", "/t1(PartitionKey='p,RowKey='r')",
			"/t1(PartitionKey='p',RowKey='r',X='y')", "/t1(PartitionKey='p',PartitionKey='r')", "/t1(PartitionKey=p,RowKey=r)",
			"/Tables(t1)", "/Tables('t1')x", "/t1(PartitionKey='p',RowKey='r')x",
		} {
			if got, err := parseResource(path); !errors.Is(err, errBadURI) {
				t.Errorf("parseResource(%q) = %+v, %v; want errBadURI", path, got, err)
			}
		}
	})
}

func FuzzParseResource(f *testing.F) {
	for _, s := range []string{"/Tables('t')", "/t(PartitionKey='a''b',RowKey='c')", "/t()", "/$batch", "/t(RowKey='',PartitionKey='')"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, path string) {
		r, err := parseResource(path)
		if err != nil {
			return
		}
		if r.kind != kindEntity {
			return
		}
		// Keys written back in URL form parse to the same keys.
		again := "/" + r.table + "(PartitionKey='" + strings.ReplaceAll(r.partitionKey, "'", "''") +
			"',RowKey='" + strings.ReplaceAll(r.rowKey, "'", "''") + "')"
		r2, err := parseResource(again)
		if err != nil || r2 != r {
			t.Fatalf("%q parsed to %+v; its rewrite %q to %+v, %v", path, r, again, r2, err)
		}
	})
}
