package wire_test

import (
	"testing"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/core/wire"
)

func TestAppendChanges(t *testing.T) {
	ts := model.MinDateTime + 10_000_000
	live := &model.Entity{PartitionKey: "p", RowKey: "a", Timestamp: ts, Properties: []model.Property{{Name: "N", Value: model.Int32Value(1)}}}
	cs := []core.Change{
		{Checkpoint: core.Checkpoint{Timestamp: ts, PartitionKey: "p", RowKey: "a"}, Entity: live},
		{Checkpoint: core.Checkpoint{Timestamp: ts + 1, PartitionKey: "p", RowKey: `b"`}},
	}
	for _, tc := range []struct {
		name string
		cs   []core.Change
		cp   string
		more bool
		wait int
		m    wire.Metadata
		want string
	}{
		{"OK/Minimal", cs, "cp", true, -1, wire.MinimalMetadata, `{"odata.metadata":"` + base + `/$metadata#People","tabletop.checkpoint":"cp","tabletop.more":true,"value":[{"odata.etag":"W/\"datetime'1601-01-01T00%3A00%3A01.0000000Z'\"","PartitionKey":"p","RowKey":"a","Timestamp":"1601-01-01T00:00:01.0000000Z","N":1}],` +
			`"tabletop.deleted":[{"PartitionKey":"p","RowKey":"b\"","Timestamp":"1601-01-01T00:00:01.0000001Z"}]}`},
		{"OK/NoMetadataEmpty", nil, "", false, -1, wire.NoMetadata, `{"tabletop.checkpoint":"","tabletop.more":false,"value":[],"tabletop.deleted":[]}`},
		{"OK/Wait", nil, "", false, 30, wire.NoMetadata, `{"tabletop.checkpoint":"","tabletop.more":false,"tabletop.wait":30,"value":[],"tabletop.deleted":[]}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := wire.ChangePage{Changes: tc.cs, Checkpoint: tc.cp, More: tc.more, Wait: tc.wait}
			if got := string(wire.AppendChanges(nil, p, ctx(tc.m))); got != tc.want {
				t.Fatalf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}
