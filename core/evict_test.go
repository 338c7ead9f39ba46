package core

import (
	"fmt"
	"github.com/tabletopdb/tabletop/core/stored"
	"testing"
)

func TestResident_Remove(t *testing.T) {
	tests := []struct {
		name   string
		ranges []string
		remove [2]string
		want   []string
	}{
		{"Middle", []string{"b", "h"}, [2]string{"c", "e"}, []string{"b", "c", "e", "h"}},
		{"Whole", []string{"b", "h"}, [2]string{"b", "h"}, nil},
		{"Start", []string{"b", "h"}, [2]string{"b", "e"}, []string{"e", "h"}},
		{"End", []string{"b", "h"}, [2]string{"e", "h"}, []string{"b", "e"}},
		{"Beyond", []string{"b", "h"}, [2]string{"a", "z"}, nil},
		{"Spanning", []string{"b", "d", "f", "h", "j", "l"}, [2]string{"c", "k"}, []string{"b", "c", "k", "l"}},
		{"Gap", []string{"b", "d", "f", "h"}, [2]string{"d", "f"}, []string{"b", "d", "f", "h"}},
		{"Empty", []string{"b", "h"}, [2]string{"e", "e"}, []string{"b", "h"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &resident{b: append([]string(nil), tt.ranges...)}
			r.remove(tt.remove[0], tt.remove[1])
			if fmt.Sprint(r.b) != fmt.Sprint(tt.want) {
				t.Errorf("ranges %q, want %q", r.b, tt.want)
			}
		})
	}
}

// TestStore_EvictRange: an evicted range leaves memory and is asked for again; loaded
// again, the store reads and writes as the full store does.
func TestStore_EvictRange(t *testing.T) {
	full := fullStore(t, 6)
	host := pageStore(t, full, 5)
	host.withLog = true
	part, err := Open(residentOpts(true))
	if err != nil {
		t.Fatal(err)
	}
	defer part.Close()
	assertSameStores(t, host, full, part) // loads every range
	all, _ := part.Records()
	t.Run("OK", func(t *testing.T) {
		lo, hi := host.pages[1].lo, host.pages[3].hi
		if _, err := part.EvictRange(lo, hi, 0); err != nil {
			t.Fatal(err)
		}
		if n, _ := part.Records(); n >= all {
			t.Fatalf("%d records after the eviction, %d before", n, all)
		}
		if err := part.need(lo, hi); err == nil {
			t.Fatal("the evicted range is still resident")
		}
		assertSameStores(t, host, full, part)
	})
	t.Run("InParts", func(t *testing.T) {
		// A few records per call: each call drops the start of what is left, and the rest
		// stays resident, readable without a load, until the calls reach hi.
		lo, hi := host.pages[0].lo, host.pages[4].hi
		if err := part.need(lo, hi); err != nil {
			assertSameStores(t, host, full, part) // loads the ranges OK evicted
		}
		calls := 0
		for from := lo; ; calls++ {
			rest, err := part.EvictRange(from, hi, 3)
			if err != nil {
				t.Fatal(err)
			}
			if rest == "" {
				break
			}
			if rest <= from {
				t.Fatalf("EvictRange(%q, …) answered %q, not past where it began", from, rest)
			}
			if err := part.need(from, rest); err == nil {
				t.Fatalf("[%q, %q) is still resident", from, rest)
			}
			if err := part.need(rest, hi); err != nil {
				t.Fatalf("[%q, %q) left resident: %v", rest, hi, err)
			}
			from = rest
		}
		if calls < 2 {
			t.Fatalf("%d calls of 3 records dropped the range", calls+1)
		}
		if err := part.need(lo, hi); err == nil {
			t.Fatal("the evicted range is still resident")
		}
		assertSameStores(t, host, full, part)
	})
	t.Run("Everything", func(t *testing.T) {
		if _, err := part.EvictRange("", KeySpaceEnd, 0); err != nil {
			t.Fatal(err)
		}
		if n, _ := part.Records(); n != 0 {
			t.Fatalf("%d records after evicting everything", n)
		}
		assertSameStores(t, host, full, part)
	})
	t.Run("Writes", func(t *testing.T) {
		// The entities go after each write; the clock stays (a write that must load the
		// clock's range first takes a later Timestamp than the full store's).
		partLog := part.backend.(*captureBackend)
		for i := 6; i < 9; i++ {
			if err := full.Update(residentWrites(i)); err != nil {
				t.Fatal(err)
			}
			if _, err := host.run(t, part, func() error { return part.Update(residentWrites(i)) }); err != nil {
				t.Fatal(err)
			}
			host.log = append(host.log, partLog.log...) // the host logs the replica's commits
			partLog.log = nil
			if _, err := part.EvictRange(stored.EntityPrefix, stored.EntityPrefix+"\xff", 0); err != nil {
				t.Fatal(err)
			}
		}
		assertSameStores(t, host, full, part)
	})
	t.Run("NotPartial", func(t *testing.T) {
		before, _ := full.Records()
		if _, err := full.EvictRange("", KeySpaceEnd, 0); err != nil {
			t.Fatal(err)
		}
		if n, _ := full.Records(); n != before {
			t.Fatalf("a store that is not partial evicted: %d records, %d before", n, before)
		}
	})
}
