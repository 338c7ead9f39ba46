package main

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/tabletopdb/tabletop/core/backend/outbox"
	"github.com/tabletopdb/tabletop/core/stored"
)

// need decodes the first range of a need answer; ok is false for any other answer.
func need(t *testing.T, err error) (lo, hi string, ok bool) {
	t.Helper()
	if rs := needs(t, err); len(rs) > 0 {
		return rs[0][0], rs[0][1], true
	}
	return "", "", false
}

// needs decodes every range of a need answer; nil for any other answer.
func needs(t *testing.T, err error) [][2]string {
	t.Helper()
	var ans struct{ Need []string }
	if err == nil || json.Unmarshal([]byte(err.Error()), &ans) != nil || len(ans.Need)%2 != 0 {
		return nil
	}
	var out [][2]string
	for i := 0; i < len(ans.Need); i += 2 {
		lo, err1 := hex.DecodeString(ans.Need[i])
		hi, err2 := hex.DecodeString(ans.Need[i+1])
		if err1 != nil || err2 != nil {
			t.Fatalf("need answer %s", err)
		}
		out = append(out, [2]string{string(lo), string(hi)})
	}
	return out
}

// mustName fails t unless every key lies in one of the ranges a need named.
func mustName(t *testing.T, ranges [][2]string, keys ...string) {
	t.Helper()
	for _, key := range keys {
		named := false
		for _, r := range ranges {
			named = named || (r[0] <= key && key < r[1])
		}
		if !named {
			t.Fatalf("the need %q names no range holding %q", ranges, key)
		}
	}
}

func TestAPI_Partial(t *testing.T) {
	full := newSession(t, "outbox", "")
	full.must("createTable", "people")
	full.must("write", "people", "create", `{"PartitionKey":"p","RowKey":"1","N":5}`, "")
	page := full.must("saveRange", "", "\xff")
	if !strings.Contains(page, "people") {
		t.Fatalf("saveRange = %q", page)
	}
	t.Run("OK", func(t *testing.T) {
		s := newSession(t, "partial")
		_, _, err := s.call("getEntity", "people", "p", "1", "")
		lo, hi, ok := need(t, err)
		if !ok || lo != "e\x00people\x00p\x001" || hi != lo+"\x00" {
			t.Fatalf("getEntity = %v", err)
		}
		s.must("loadRange", "", "\xff", page)
		if got := s.entity("people", "p", "1"); len(got) == 0 {
			t.Fatal("entity missing after its range loaded")
		}
		_, recs, err := s.call("write", "people", "create", `{"PartitionKey":"p","RowKey":"2"}`, "")
		if err != nil || len(recs) != 1 || recs[0].Kind != outbox.ChangeSet {
			t.Fatalf("write records %+v, err %v", recs, err)
		}
	})
	t.Run("OK/SaveInParts", func(t *testing.T) {
		// Saved a few bytes at a time, each part going on after the last key of the one
		// before, the range comes back whole.
		s := newSession(t, "outbox", "")
		s.must("createTable", "people")
		for i := range 20 {
			s.must("write", "people", "create", fmt.Sprintf(`{"PartitionKey":"p","RowKey":"%02d","S":"%s"}`, i, strings.Repeat("x", 50)), "")
		}
		whole := s.must("saveRange", "", "\xff")
		var joined string
		parts := 0
		for from := ""; ; parts++ {
			part := s.must("saveRange", from, "\xff", "300")
			joined += part
			if len(part) < 300 {
				break
			}
			last := ""
			if err := stored.EachCommand([]byte(part), func(_ []byte, key string) error { last = key; return nil }); err != nil {
				t.Fatal(err)
			}
			from = last + "\x00"
		}
		if joined != whole || parts < 5 {
			t.Fatalf("%d parts joined to %d bytes of %d", parts, len(joined), len(whole))
		}
	})
	t.Run("OK/EvictInParts", func(t *testing.T) {
		// Dropped 4 records a call, each call answering the key it kept first: the entities
		// before it must be loaded again, those from it on are still readable.
		s := newSession(t, "partial")
		var cmds strings.Builder
		for i := range 10 {
			key := fmt.Sprintf("k%02d", i)
			fmt.Fprintf(&cmds, "*3\r\n$3\r\nset\r\n$%d\r\n%s\r\n$1\r\nv\r\n", len(key), key)
		}
		s.must("loadRange", "", "\xff", cmds.String())
		var rests []string
		for from := "k"; ; {
			rest := s.must("evictRange", from, "l", "4")
			if rest == "" {
				break
			}
			rests = append(rests, rest)
			if _, _, err := s.call("saveRange", from, rest); err == nil {
				t.Fatalf("[%q, %q) is still resident", from, rest)
			}
			s.must("saveRange", rest, "l") // still resident
			from = rest
		}
		if strings.Join(rests, " ") != "k04 k08" {
			t.Fatalf("evictRange answered %q, want k04 then k08", rests)
		}
		_, _, err := s.call("saveRange", "k", "l")
		if _, _, ok := need(t, err); !ok {
			t.Fatal("the evicted range is still resident")
		}
	})
	t.Run("ErrNeedRange/WriteLeavesNoRecords", func(t *testing.T) {
		s := newSession(t, "partial")
		_, recs, err := s.call("write", "people", "create", `{"PartitionKey":"p","RowKey":"2"}`, "")
		if _, _, ok := need(t, err); !ok || len(recs) != 0 {
			t.Fatalf("write = %v, records %+v", err, recs)
		}
	})
	t.Run("ErrRangeInvalid", func(t *testing.T) {
		s := newSession(t, "partial")
		_, _, err := s.call("loadRange", "")
		wantCode(t, err, "InvalidInput")
	})
	t.Run("ErrChangeSetInvalid", func(t *testing.T) {
		s := newSession(t, "partial")
		_, _, err := s.call("loadRange", "", "\xff", "*2\r\n")
		if err == nil || !strings.Contains(err.Error(), "malformed") {
			t.Fatalf("loadRange = %v", err)
		}
	})
}
