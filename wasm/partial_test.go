package main

import (
	"encoding/hex"
	"encoding/json"
	"strings"
	"testing"

	"github.com/tabletopdb/tabletop/core/backend/outbox"
)

// need decodes a need answer into its range; ok is false for any other answer.
func need(t *testing.T, err error) (lo, hi string, ok bool) {
	t.Helper()
	var ans struct{ Need []string }
	if err == nil || json.Unmarshal([]byte(err.Error()), &ans) != nil || len(ans.Need) != 2 {
		return "", "", false
	}
	l, err1 := hex.DecodeString(ans.Need[0])
	h, err2 := hex.DecodeString(ans.Need[1])
	if err1 != nil || err2 != nil {
		t.Fatalf("need answer %s", err)
	}
	return string(l), string(h), true
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
