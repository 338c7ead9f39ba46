package wire_test

import (
	"testing"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/wire"
)

func TestAppendChanges(t *testing.T) {
	ts := core.MinDateTime + 10_000_000
	live := &core.Entity{PartitionKey: "p", RowKey: "a", Timestamp: ts, Properties: []core.Property{{Name: "N", Value: core.Int32Value(1)}}}
	cs := []core.Change{
		{Checkpoint: core.Checkpoint{Timestamp: ts, PartitionKey: "p", RowKey: "a"}, Entity: live},
		{Checkpoint: core.Checkpoint{Timestamp: ts + 1, PartitionKey: "p", RowKey: `b"`}},
	}
	for _, tc := range []struct {
		name string
		cs   []core.Change
		cp   string
		more bool
		m    wire.Metadata
		want string
	}{
		{"OK/Minimal", cs, "cp", true, wire.MinimalMetadata, `{"odata.metadata":"` + base + `/$metadata#People","tabletop.checkpoint":"cp","tabletop.more":true,"value":[{"odata.etag":"W/\"datetime'1601-01-01T00%3A00%3A01.0000000Z'\"","PartitionKey":"p","RowKey":"a","Timestamp":"1601-01-01T00:00:01.0000000Z","N":1}],` +
			`"tabletop.deleted":[{"PartitionKey":"p","RowKey":"b\"","Timestamp":"1601-01-01T00:00:01.0000001Z"}]}`},
		{"OK/NoMetadataEmpty", nil, "", false, wire.NoMetadata, `{"tabletop.checkpoint":"","tabletop.more":false,"value":[],"tabletop.deleted":[]}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := string(wire.AppendChanges(nil, tc.cs, tc.cp, tc.more, ctx(tc.m))); got != tc.want {
				t.Fatalf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}
