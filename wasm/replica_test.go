package main

import (
	"testing"

	"github.com/tabletopdb/tabletop/core/model"
)

func TestStore_Apply(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		a := newSession(t, "outbox", "")
		b := newSession(t, "outbox", "")
		var sets []string
		for _, args := range [][]string{
			{"createTable", "people"},
			{"write", "people", "create", `{"PartitionKey":"p","RowKey":"1","n":1}`, ""},
		} {
			_, recs, err := a.call(args...)
			if err != nil {
				t.Fatal(err)
			}
			sets = append(sets, string(recs[0].Data))
		}
		_, recs, err := b.call(append([]string{"apply"}, sets...)...)
		if err != nil || len(recs) != 0 {
			t.Fatalf("apply = %+v, %v; want no records", recs, err)
		}
		if got := b.entity("people", "p", "1"); got["n"] != model.Int32Value(1) {
			t.Fatalf("replica reads %+v", got)
		}
	})
	t.Run("ErrStoreNotOpen", func(t *testing.T) {
		s := newSession(t, "outbox", "")
		s.must("close")
		_, _, err := s.call("apply", "*1\r\n$3\r\ndel\r\n")
		wantCode(t, err, "ServerBusy")
	})
}

func TestStore_Compacted(t *testing.T) {
	s := newSession(t, "outbox", "")
	t.Run("OK", func(t *testing.T) {
		s.must("compacted", "1024")
	})
	t.Run("ErrSizeInvalid", func(t *testing.T) {
		_, _, err := s.call("compacted", "-1")
		wantCode(t, err, "InvalidInput")
	})
}
