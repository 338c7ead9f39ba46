package query

import "testing"

func TestFilter_KeysOnly(t *testing.T) {
	for _, tc := range []struct {
		filter string
		want   bool
	}{
		{"", true},
		{"PartitionKey eq 'a'", true},
		{"PartitionKey ge 'a' and not (RowKey lt 'b' or RowKey eq 'c')", true},
		{"'a' le PartitionKey", true},
		{"N eq 1", false},
		{"PartitionKey eq 'a' and Timestamp ge datetime'2020-01-01T00:00:00Z'", false},
		{"not (RowKey eq 'x' or Name eq 'y')", false},
	} {
		f, err := ParseFilter(tc.filter)
		if err != nil {
			t.Fatalf("%q: %v", tc.filter, err)
		}
		if got := f.KeysOnly(); got != tc.want {
			t.Errorf("%q: KeysOnly = %v, want %v", tc.filter, got, tc.want)
		}
	}
}
