package query

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestParseSelect(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		tests := []struct {
			in   string
			want Selection
		}{
			{"", nil}, {"  ", nil}, {"*", nil}, {"Name,*", nil},
			{"Name", Selection{"Name"}},
			{"Name,Age,PartitionKey", Selection{"Name", "Age", "PartitionKey"}},
			{" Name , RowKey,Timestamp ", Selection{"Name", "RowKey", "Timestamp"}},
			{"Name,Name,Age", Selection{"Name", "Age"}},
			{"TableName", Selection{"TableName"}}, {"Prénom", Selection{"Prénom"}},
		}
		for _, tt := range tests {
			got, err := ParseSelect(tt.in)
			if err != nil || !slices.Equal(got, tt.want) || (got == nil) != (tt.want == nil) {
				t.Fatalf("ParseSelect(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
			}
		}
	})
	t.Run("ErrSelectInvalid", func(t *testing.T) {
		tests := []struct {
			in  string
			pos int
		}{
			{"Name,", 5}, {",Name", 0}, {"Name,,Age", 5}, {"Na-me", 0}, {"Name, 1abc", 6},
			{"a b", 0}, {"é,x y", 2}, {"Name,odata.etag", 5}, {strings.Repeat("x", 256), 0},
		}
		for _, tt := range tests {
			_, err := ParseSelect(tt.in)
			var se *SyntaxError
			if !errors.Is(err, ErrSelectInvalid) || !errors.As(err, &se) || se.Pos != tt.pos {
				t.Fatalf("ParseSelect(%q) = %v; want ErrSelectInvalid at %d", tt.in, err, tt.pos)
			}
		}
	})
	t.Run("TooMany", func(t *testing.T) {
		names := make([]string, 256)
		for i := range names {
			names[i] = "p" + strings.Repeat("x", i)
		}
		if _, err := ParseSelect(strings.Join(names, ",")); !errors.Is(err, ErrSelectInvalid) {
			t.Fatalf("256 names: %v, want ErrSelectInvalid", err)
		}
	})
}

func TestSelection_Includes(t *testing.T) {
	var all Selection
	some := Selection{"Name", "PartitionKey"}
	if !all.Includes("Anything") || !some.Includes("Name") || some.Includes("Age") {
		t.Fatal("Includes is wrong")
	}
}
