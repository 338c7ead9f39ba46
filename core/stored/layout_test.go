package stored

import (
	"strings"
	"testing"
)

func TestSplitEntityKey(t *testing.T) {
	prefix := TableEntities("t")
	for _, pk := range []string{"", "p", "p05", "1234567", "12345678", "123456789", strings.Repeat("k", 17), "é\x01\x7f\x80\xff"} {
		for _, rk := range []string{"", "r", "012345", strings.Repeat("r", 20)} {
			gotPK, gotRK := SplitEntityKey(prefix+pk+Sep+rk, len(prefix))
			if gotPK != pk || gotRK != rk {
				t.Fatalf("split %q, %q: got %q, %q", pk, rk, gotPK, gotRK)
			}
		}
	}
}

func TestTableEntityKey(t *testing.T) {
	for _, table := range []string{"abc", "People", "PEOPLE2024", "zZ9", "AaZz09"} {
		for _, pk := range []string{"", "p", "é\x01\x7f\x80\xff"} {
			for _, rk := range []string{"", "r", "ABC"} {
				if got, want := TableEntityKey(table, pk, rk), EntityKey(TableID(table), pk, rk); got != want {
					t.Fatalf("tableEntityKey(%q, %q, %q) = %q, want %q", table, pk, rk, got, want)
				}
			}
		}
	}
}
