package model

import (
	"testing"
	"unicode/utf8"
)

// TestAsciiPropertyName holds the ASCII fast path of ValidatePropertyName to the Unicode
// rules it stands for, for every one- and two-character ASCII name, and checks that it
// leaves other names to them.
func TestAsciiPropertyName(t *testing.T) {
	byRules := func(name string) bool {
		for i, r := range name {
			if !isIdentifierRune(r, i == 0) || !isXMLNameRune(r, i == 0) {
				return false
			}
		}
		return true
	}
	for a := range utf8.RuneSelf {
		for b := -1; b < utf8.RuneSelf; b++ {
			name := string(rune(a))
			if b >= 0 {
				name += string(rune(b))
			}
			if valid, ascii := asciiPropertyName(name); !ascii || valid != byRules(name) {
				t.Fatalf("asciiPropertyName(%q) = %v, %v; the rules say %v", name, valid, ascii, byRules(name))
			}
		}
	}
	for _, name := range []string{"é", "aé", "a\u0301", "名前", "a\xff"} {
		if _, ascii := asciiPropertyName(name); ascii {
			t.Errorf("asciiPropertyName(%q) takes it as ASCII", name)
		}
	}
}
