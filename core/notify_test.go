package core_test

import (
	"testing"

	"github.com/tabletopdb/tabletop/core"
)

// TestStore_Changed: the channel closes when a write commits, not on a failed write or a
// transaction that wrote nothing, and a later call waits for the next write.
func TestStore_Changed(t *testing.T) {
	s := newRuleStore(t, core.Options{}, "ttt")
	ch := s.Changed()
	closed := func(c <-chan struct{}) bool {
		select {
		case <-c:
			return true
		default:
			return false
		}
	}
	if _, err := s.Apply("nope", core.Op{Kind: core.OpInsert, Entity: ent("p", "a")}); err == nil {
		t.Fatal("insert into a missing table succeeded")
	}
	if err := s.Update(func(tx *core.Tx) error { _, err := tx.Table("ttt"); return err }); err != nil {
		t.Fatal(err)
	}
	if closed(ch) {
		t.Fatal("closed without a write")
	}
	if s.Changed() != ch {
		t.Fatal("a second waiter got another channel before any write")
	}
	insert(t, s, "ttt", ent("p", "a"))
	if !closed(ch) {
		t.Fatal("not closed after a write")
	}
	if next := s.Changed(); closed(next) {
		t.Fatal("the next channel is closed before the next write")
	}
}
