package core

import (
	"strings"
	"testing"
)

func TestSplitEntityKey(t *testing.T) {
	prefix := tableEntities("t")
	for _, pk := range []string{"", "p", "p05", "1234567", "12345678", "123456789", strings.Repeat("k", 17), "é\x01\x7f\x80\xff"} {
		for _, rk := range []string{"", "r", "012345", strings.Repeat("r", 20)} {
			gotPK, gotRK := splitEntityKey(prefix+pk+sep+rk, len(prefix))
			if gotPK != pk || gotRK != rk {
				t.Fatalf("split %q, %q: got %q, %q", pk, rk, gotPK, gotRK)
			}
		}
	}
}
