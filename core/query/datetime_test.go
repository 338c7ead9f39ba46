package query

import (
	"testing"

	"github.com/tabletopdb/tabletop/core/model"
)

// TestParseFilter_DateTimeForms: every text form an entity's DateTime takes is a valid
// datetime literal with the same value, so a value written by a client can be queried
// as it was written.
func TestParseFilter_DateTimeForms(t *testing.T) {
	forms := []string{
		"2021-08-31T15:40:49.6724407Z", "2021-08-31T15:40:49.672Z", "2021-08-31T15:40:49Z",
		"2021-08-31T15:40Z", "2021-08-31T15:40", "2021-08-31T15:40:49", "2021-08-31T15:40:49.67244079Z",
		"2021-08-31T15:40:49.6724407+02:00", "2021-08-31T15:40:49-07:30", "1601-01-01T00:00:00Z",
		"9999-12-31T23:59:59.9999999Z", "9999-12-31T23:59:59.99999999999Z",
	}
	for _, s := range forms {
		t.Run(s, func(t *testing.T) {
			want, err := model.ParseDateTime(s)
			if err != nil {
				t.Fatalf("entity value %q: %v", s, err)
			}
			f, err := ParseFilter("Born eq datetime'" + s + "'")
			if err != nil {
				t.Fatalf("filter literal %q: %v", s, err)
			}
			e := &model.Entity{PartitionKey: "p", RowKey: "r"}
			e.Set("Born", model.DateTimeValue(want))
			if !f.Matches(e) {
				t.Fatalf("literal %q does not equal the entity value %s", s, want)
			}
		})
	}
}
