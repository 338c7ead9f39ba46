package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tabletopdb/tabletop/core/replica"
	"github.com/tabletopdb/tabletop/core/stored"
)

func TestAPI_Sync(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		s := newSession(t, "outbox", "")
		s.must("createTable", "people")
		s.must("syncTrack", "people")
		s.must("write", "people", "create", `{"PartitionKey":"p","RowKey":"local","D":5.0}`, "")
		box := s.must("syncOutbox", "people", "", "", "0")
		if !strings.Contains(box, `"rk":"local","base":"","local":"W/`) || !strings.Contains(box, `\"D@odata.type\":\"Edm.Double\",\"D\":5.0`) {
			t.Fatalf("outbox = %s", box)
		}
		page := `{"tabletop.checkpoint":"c1","tabletop.more":false,"value":[{"odata.etag":"W/\"r1\"","PartitionKey":"p","RowKey":"remote","D":5.0}],"tabletop.deleted":[]}`
		_, records, err := s.call("syncPull", "people", page, "feed", "", "")
		if err != nil || len(records) != 1 {
			t.Fatalf("pull: %v, %d records (the page and its checkpoint in one change set)", err, len(records))
		}
		if got := s.must("syncState", "people"); got != `{"checkpoint":"feed:c1","pending":1}` {
			t.Fatalf("state = %s", got)
		}
		if got := s.must("syncSame", "people", "p", "remote", `{"PartitionKey":"p","RowKey":"remote","D":5.0}`); got != "true" {
			t.Fatalf("same = %s", got)
		}
		if got := s.must("syncSame", "people", "p", "remote", `{"PartitionKey":"p","RowKey":"remote","D":5}`); got != "false" {
			t.Fatalf("same with an Int32 = %s", got)
		}
		if got := s.must("syncKeys", "people"); got != `[["p","remote"]]` {
			t.Fatalf("keys = %s", got)
		}
		local := strings.Split(strings.Split(box, `"local":"`)[1], `","body"`)[0]
		local = strings.ReplaceAll(local, `\"`, `"`)
		s.must("syncAck", "people", "p", "local", local, `W/"r2"`, "p", "remote", "", `W/"r1"`)
		if got := s.must("syncState", "people"); got != `{"checkpoint":"feed:c1","pending":0}` {
			t.Fatalf("state after ack = %s", got)
		}
		if _, _, err := s.call("syncAck", "people", "p", "x", ""); err == nil {
			t.Fatal("a partial ack group was accepted")
		}
	})
	t.Run("OK/RequeueAndForget", func(t *testing.T) {
		s := newSession(t)
		s.must("createTable", "people")
		s.must("syncTrack", "people")
		page := `{"tabletop.checkpoint":"c1","tabletop.more":false,"value":[{"odata.etag":"W/\"r1\"","PartitionKey":"p","RowKey":"remote"}],"tabletop.deleted":[]}`
		s.must("syncPull", "people", page, "feed", "", "")
		s.must("write", "people", "create", `{"PartitionKey":"p","RowKey":"local"}`, "")
		if got := s.must("syncKeys", "people", "all"); got != `[["p","local"],["p","remote"]]` {
			t.Fatalf("all keys = %s", got)
		}
		s.must("syncRequeue", "people")
		if got := s.must("syncState", "people"); got != `{"checkpoint":"","pending":2}` {
			t.Fatalf("state after requeue = %s", got)
		}
		if box := s.must("syncOutbox", "people", "", "", "0"); strings.Count(box, `"base":""`) != 2 {
			t.Fatalf("outbox after requeue = %s", box)
		}
		s.must("syncForget", "people", "adopt:")
		if got := s.must("syncState", "people"); got != `{"checkpoint":"adopt:","pending":0}` {
			t.Fatalf("state after forget = %s", got)
		}
		if got := s.must("syncKeys", "people"); got != `[]` {
			t.Fatalf("synced keys after forget = %s", got)
		}
	})
	t.Run("ErrNotTracked", func(t *testing.T) {
		s := newSession(t)
		s.must("createTable", "people")
		_, _, err := s.call("syncOutbox", "people", "", "", "0")
		wantCode(t, err, "InvalidInput")
		for _, op := range []string{"syncRequeue", "syncForget"} {
			_, _, err := s.call(op, "people", "")
			wantCode(t, err, "InvalidInput")
		}
	})
	t.Run("ErrPageInvalid", func(t *testing.T) {
		s := newSession(t)
		s.must("createTable", "people")
		s.must("syncTrack", "people")
		_, _, err := s.call("syncPull", "people", `{"value":[{"RowKey":"x"}]}`, "feed", "", "")
		wantCode(t, err, "PropertiesNeedValue")
	})
}

func TestAPI_SyncPullNeedsEveryPartition(t *testing.T) {
	full := newSession(t, "outbox", "")
	full.must("createTable", "people")
	full.must("syncTrack", "people")
	meta := full.must("saveRange", "m", "\xff") // the store's own records, the table's, its sync state and outbox
	s := newSession(t, "partial")
	s.must("loadRange", "m", "\xff", meta)
	var value []string
	for _, pk := range []string{"a", "b", "c"} {
		value = append(value, fmt.Sprintf(`{"odata.etag":"W/\"%s\"","PartitionKey":"%s","RowKey":"0"}`, pk, pk))
	}
	page := `{"tabletop.checkpoint":"c1","tabletop.more":false,"value":[` + strings.Join(value, ",") + `],"tabletop.deleted":[]}`
	_, recs, err := s.call("syncPull", "people", page, "feed", "", "")
	got := needs(t, err)
	if len(got) == 0 || len(recs) != 0 {
		t.Fatalf("pull = %v, records %+v; want a need", err, recs)
	}
	id := stored.TableID("people")
	for _, pk := range []string{"a", "b", "c"} {
		mustName(t, got, replica.Keys(id, pk, "0")[:2]...) // the entity and its deletion record; the rest is loaded
	}
}
