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

func TestZeroAt(t *testing.T) {
	for _, s := range []string{"", "a", "\x00", "\x01\x00", "\x80\x00", "\xff\x01\x00\x00",
		"1234567\x00", "12345678\x00", "12345678\x01\x00", strings.Repeat("\x01", 23) + "\x00",
		"\x01\x01\x01\x01\x01\x01\x01\x01", "\x00\x01\x00", "abcdefgh"} {
		if got, want := zeroAt(s), strings.IndexByte(s, 0); got != want {
			t.Fatalf("zeroAt(%q) = %d, want %d", s, got, want)
		}
	}
}
