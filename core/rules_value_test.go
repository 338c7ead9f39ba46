package core_test

import (
	"encoding/base64"
	"testing"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/model"
)

// The data model, "Property types": Binary at most 64 KiB; String at most 64 KiB measured
// as UTF-16 (2 bytes per code unit, not UTF-8 bytes); DateTime from 1601-01-01 to
// 9999-12-31 UTC.

func TestRule_Value_Binary64KiB(t *testing.T) {
	cases := []struct {
		name string
		n    int
		want error
	}{
		{"OK/empty", 0, nil},
		{"OK/65536", model.MaxValueBytes, nil},
		{"ErrValueTooLarge/65537", model.MaxValueBytes + 1, model.ErrValueTooLarge},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := make([]byte, c.n)
			wantErr(t, model.BinaryValue(b).Validate(), c.want)
			_, err := model.ParseValue(model.TypeBinary, base64.StdEncoding.EncodeToString(b))
			wantErr(t, err, c.want)
		})
	}
}

func TestRule_Value_String64KiBAsUTF16(t *testing.T) {
	cases := []struct {
		name, s string
		want    error
	}{
		{"OK/32768ascii", rep("a", 32768), nil},
		{"OK/32768threeByte", rep("€", 32768), nil}, // 98,304 UTF-8 bytes but 65,536 UTF-16 bytes
		{"OK/16384astral", rep(emoji, 16384), nil},  // 32,768 code units
		{"ErrValueTooLarge/32769ascii", rep("a", 32769), model.ErrValueTooLarge},
		{"ErrValueTooLarge/32769threeByte", rep("€", 32769), model.ErrValueTooLarge},
		{"ErrValueTooLarge/16385astral", rep(emoji, 16385), model.ErrValueTooLarge},
		{"ErrValueTooLarge/oneOver", rep(emoji, 16383) + "ab" + "c", model.ErrValueTooLarge},
		{"ErrValueInvalid/invalidUTF8", "a\xffb", model.ErrValueInvalid},
	}
	s := newRuleStore(t, core.Options{}, "Strings")
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			wantErr(t, model.StringValue(c.s).Validate(), c.want)
			_, err := model.ParseValue(model.TypeString, c.s)
			wantErr(t, err, c.want)
			e := &model.Entity{PartitionKey: "p", RowKey: itoa(i), Properties: []model.Property{{Name: "S", Value: model.StringValue(c.s)}}}
			_, err = s.Apply("Strings", core.Op{Kind: core.OpInsert, Entity: e})
			wantErr(t, err, c.want)
		})
	}
}

func TestRule_Value_DateTimeRange(t *testing.T) {
	cases := []struct {
		name string
		d    model.DateTime
		want error
	}{
		{"OK/min", model.MinDateTime, nil},
		{"OK/max", model.MaxDateTime, nil},
		{"ErrValueOutOfRange/minMinus100ns", model.MinDateTime - 1, model.ErrValueOutOfRange},
		{"ErrValueOutOfRange/maxPlus100ns", model.MaxDateTime + 1, model.ErrValueOutOfRange},
		{"ErrValueOutOfRange/zero", 0, model.ErrValueOutOfRange},
	}
	s := newRuleStore(t, core.Options{}, "Dates")
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			wantErr(t, model.DateTimeValue(c.d).Validate(), c.want)
			e := &model.Entity{PartitionKey: "p", RowKey: itoa(i), Properties: []model.Property{{Name: "D", Value: model.DateTimeValue(c.d)}}}
			_, err := s.Apply("Dates", core.Op{Kind: core.OpInsert, Entity: e})
			wantErr(t, err, c.want)
		})
	}
	if got := model.MinDateTime.String(); got != "1601-01-01T00:00:00.0000000Z" {
		t.Errorf("MinDateTime = %s", got)
	}
	if got := model.MaxDateTime.String(); got != "9999-12-31T23:59:59.9999999Z" {
		t.Errorf("MaxDateTime = %s", got)
	}
}
