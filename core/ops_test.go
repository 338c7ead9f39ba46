package core

import "testing"

// TestOpKindNames checks that every kind's name reads back as the kind, and that no other
// name, nor a name in another case, reads as one.
func TestOpKindNames(t *testing.T) {
	seen := map[string]bool{}
	for k := OpInsert; k <= OpDelete; k++ {
		name := k.String()
		if name == "unknown" || seen[name] {
			t.Fatalf("kind %d is named %q", k, name)
		}
		seen[name] = true
		if got, ok := ParseOpKind(name); !ok || got != k {
			t.Errorf("ParseOpKind(%q) = %d, %v; want %d", name, got, ok, k)
		}
	}
	for _, name := range []string{"", "unknown", "Create", "insert", "upsert", "update", "merge", "DELETE"} {
		if k, ok := ParseOpKind(name); ok {
			t.Errorf("ParseOpKind(%q) = %d, want none", name, k)
		}
	}
	if s := OpKind(0).String(); s != "unknown" {
		t.Errorf("OpKind(0) = %q", s)
	}
	if s := OpKind(OpDelete + 1).String(); s != "unknown" {
		t.Errorf("OpKind(%d) = %q", OpDelete+1, s)
	}
}
