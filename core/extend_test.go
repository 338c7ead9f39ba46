package core_test

import (
	"testing"
	"time"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/model"
)

func TestTx_AdvanceClock(t *testing.T) {
	// The store's wall clock is years behind the Timestamp a host copies in.
	s, err := core.Open(core.Options{Now: func() time.Time { return time.Date(2001, 1, 1, 0, 0, 0, 0, time.UTC) }})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.CreateTable("things"); err != nil {
		t.Fatal(err)
	}
	later := model.DateTimeOf(time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC))
	if err := s.Update(func(tx *core.Tx) error { return tx.AdvanceClock(later) }); err != nil {
		t.Fatal(err)
	}
	e, err := s.Apply("things", core.Op{Kind: core.OpInsert, Entity: entity("a", "1")})
	if err != nil {
		t.Fatal(err)
	}
	if e.Timestamp <= later {
		t.Fatalf("a write after AdvanceClock(%v) took %v", later, e.Timestamp)
	}
	// An earlier Timestamp leaves the clock where it is.
	if err := s.Update(func(tx *core.Tx) error { return tx.AdvanceClock(later - 1) }); err != nil {
		t.Fatal(err)
	}
	next, err := s.Apply("things", core.Op{Kind: core.OpInsert, Entity: entity("a", "2")})
	if err != nil {
		t.Fatal(err)
	}
	if next.Timestamp <= e.Timestamp {
		t.Fatalf("the clock went back: %v after %v", next.Timestamp, e.Timestamp)
	}
}
