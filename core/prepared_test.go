package core

import (
	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/core/stored"
	"testing"
)

// TestPreparedInsert_Stamp: a prepared record, once stamped, is byte for byte the record
// stored.EncodeKeyed makes with that Timestamp, whether the Timestamp's encoding has the
// placeholder's length (every Timestamp a store issues) or not.
func TestPreparedInsert_Stamp(t *testing.T) {
	e := &model.Entity{PartitionKey: "p", RowKey: "r", Properties: []model.Property{
		{Name: "Name", Value: model.StringValue("a name")}, {Name: "Count", Value: model.Int32Value(7)},
		{Name: "When", Value: model.DateTimeValue(model.MinDateTime + 5)}}}
	for name, ts := range map[string]model.DateTime{
		"OK":                           model.MinDateTime + 123_456_789,
		"OK_MaxDateTime":               model.MaxDateTime,
		"shorter than the placeholder": 5,
	} {
		t.Run(name, func(t *testing.T) {
			p := prepareInsert("items", e)
			key, value := p.stamp(ts)
			wantKey, wantValue := stored.EncodeKeyed(ts, e.Properties, stored.EntityPrefix, "items", stored.Sep, "p", stored.Sep, "r")
			if key != wantKey || value != wantValue {
				t.Fatalf("stamped record %q %q, want %q %q", key, value, wantKey, wantValue)
			}
			if p.out.Timestamp != ts || p.out.PartitionKey != "p" || p.out.RowKey != "r" || len(p.out.Properties) != 3 {
				t.Fatalf("entity as stored: %+v", p.out)
			}
		})
	}
}
