package main

import (
	"encoding/binary"
	"errors"
	"strings"
	"testing"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/azerr"
	"github.com/tabletopdb/tabletop/core/backend/outbox"
	"github.com/tabletopdb/tabletop/core/model"
)

// frame builds a request frame of args, as the web module does.
func frame(args ...string) []byte {
	b := binary.LittleEndian.AppendUint32(nil, uint32(len(args)))
	for _, a := range args {
		b = binary.LittleEndian.AppendUint32(b, uint32(len(a)))
	}
	for _, a := range args {
		b = append(b, a...)
	}
	return b
}

// session is an api with one open store, called as JavaScript calls it.
type session struct {
	t      testing.TB
	a      *api
	handle string
}

// newSession opens a store: "memory", or "outbox" followed by its snapshot and change sets.
func newSession(t testing.TB, open ...string) *session {
	t.Helper()
	if len(open) == 0 {
		open = []string{"memory"}
	}
	s := &session{t: t, a: newAPI()}
	json, _, err := s.call(append([]string{"open", ""}, open...)...)
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	s.handle = string(json)
	return s
}

// call performs op on the session's store; a failure comes back as an error holding the
// error object's JSON.
func (s *session) call(args ...string) (string, []outbox.Record, error) {
	if args[0] != "open" && s.handle != "" {
		args = append([]string{args[0], s.handle}, args[1:]...)
	}
	res, ok := s.a.call(frame(args...))
	json, records, err := decodeResult(res)
	if err != nil {
		s.t.Fatal(err)
	}
	if !ok {
		return "", nil, errors.New(string(json))
	}
	return string(json), records, nil
}

func (s *session) must(args ...string) string {
	s.t.Helper()
	json, _, err := s.call(args...)
	if err != nil {
		s.t.Fatalf("%s: %v", args[0], err)
	}
	return json
}

// wantCode checks that err is the error object of code.
func wantCode(t *testing.T, err error, code string) {
	t.Helper()
	if err == nil || !strings.Contains(err.Error(), `"code":"`+code+`"`) {
		t.Fatalf("err = %v, want code %s", err, code)
	}
}

func TestAPI_Write(t *testing.T) {
	s := newSession(t)
	s.must("createTable", "people")
	t.Run("OK", func(t *testing.T) {
		etag := s.must("write", "people", "create", `{"PartitionKey":"p","RowKey":"1","N@odata.type":"Edm.Int64","N":"9007199254740993","D":5.0}`, "")
		if !strings.HasPrefix(etag, `"W/\"datetime'`) {
			t.Fatalf("write = %s", etag)
		}
		got := s.entity("people", "p", "1")
		if got["N"] != model.Int64Value(9007199254740993) || got["D"] != model.DoubleValue(5) {
			t.Fatalf("getEntity = %+v", got)
		}
	})
	t.Run("ErrActionInvalid", func(t *testing.T) {
		_, _, err := s.call("write", "people", "bogus", `{}`, "")
		wantCode(t, err, "InvalidInput")
	})
	t.Run("ErrEntityExists", func(t *testing.T) {
		_, _, err := s.call("write", "people", "create", `{"PartitionKey":"p","RowKey":"1"}`, "")
		wantCode(t, err, "EntityAlreadyExists")
	})
	t.Run("ErrValueInvalid", func(t *testing.T) {
		_, _, err := s.call("write", "people", "create", `{"PartitionKey":"p","RowKey":"2","A@odata.type":"Edm.Int32","A":"fifteen"}`, "")
		wantCode(t, err, "InvalidInput")
	})
	t.Run("ErrOperationUnknown", func(t *testing.T) {
		_, _, err := s.call("frobnicate")
		wantCode(t, err, "InvalidInput")
	})
	t.Run("ErrStoreNotOpen", func(t *testing.T) {
		res, ok := s.a.call(frame("getEntity", "99", "people", "p", "1", ""))
		json, _, _ := decodeResult(res)
		if ok || !strings.Contains(string(json), `"statusCode":503`) {
			t.Fatalf("call = %s", json)
		}
	})
}

func TestAPI_Records(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		s := newSession(t, "outbox", "")
		_, recs, err := s.call("createTable", "people")
		if err != nil || len(recs) != 1 || recs[0].Kind != outbox.ChangeSet {
			t.Fatalf("createTable records = %+v, %v", recs, err)
		}
		_, recs, _ = s.call("getEntity", "people", "p", "1", "")
		if len(recs) != 0 {
			t.Fatalf("a read left %d records", len(recs))
		}
		_, recs, _ = s.call("compact")
		if len(recs) != 1 || recs[0].Kind != outbox.Snapshot {
			t.Fatalf("compact records = %+v", recs)
		}
		// Reopened on the snapshot, the table is there.
		again := newSession(t, "outbox", string(recs[0].Data))
		if got := again.must("listTables", "", "0", ""); !strings.Contains(got, `"people"`) {
			t.Fatalf("listTables = %s", got)
		}
	})
	t.Run("ErrFailedWriteLeavesNone", func(t *testing.T) {
		s := newSession(t, "outbox", "")
		_, recs, err := s.call("createTable", "1bad")
		if err == nil || len(recs) != 0 {
			t.Fatalf("records = %+v, %v", recs, err)
		}
	})
}

func TestAPI_QueryEntities(t *testing.T) {
	s := newSession(t)
	s.must("createTable", "people")
	for _, rk := range []string{"a", "b", "c"} {
		s.must("write", "people", "create", `{"PartitionKey":"p","RowKey":"`+rk+`"}`, "")
	}
	t.Run("OK", func(t *testing.T) {
		nextPK, nextRK, _, page := decodePageAnswer(t, []byte(s.must("queryEntities", "people", "RowKey ne 'b'", "RowKey", "1", "", "")))
		if nextPK == "" || nextRK == "" || len(page) != 1 || page[0].RowKey != "a" || page[0].Flags != entityHasRowKey {
			t.Fatalf("queryEntities = %q %q %+v", nextPK, nextRK, page)
		}
		_, _, _, rest := decodePageAnswer(t, []byte(s.must("queryEntities", "people", "RowKey ne 'b'", "RowKey", "0", nextPK, nextRK)))
		if len(rest) != 1 || rest[0].RowKey != "c" {
			t.Fatalf("the next page = %+v", rest)
		}
	})
	t.Run("ErrSelectInvalid", func(t *testing.T) {
		_, _, err := s.call("queryEntities", "people", "", "a b", "0", "", "")
		wantCode(t, err, "InvalidInput")
	})
}

func TestAPI_Transaction(t *testing.T) {
	s := newSession(t)
	s.must("createTable", "people")
	t.Run("OK", func(t *testing.T) {
		_, _, err := s.call("transaction", "people", "create", `{"PartitionKey":"p","RowKey":"1"}`, "", "delete", `{"PartitionKey":"p","RowKey":"0"}`, "*")
		if err == nil || !strings.Contains(err.Error(), `"code":"ResourceNotFound"`) || !strings.Contains(err.Error(), `"index":1`) {
			t.Fatalf("transaction = %v", err)
		}
		got := s.must("transaction", "people", "create", `{"PartitionKey":"p","RowKey":"1"}`, "", "upsertMerge", `{"PartitionKey":"p","RowKey":"2"}`, "")
		if strings.Count(got, `W/\"datetime`) != 2 {
			t.Fatalf("transaction = %s", got)
		}
	})
	t.Run("ErrBatchEmpty", func(t *testing.T) {
		_, _, err := s.call("transaction", "people")
		wantCode(t, err, "InvalidInput")
	})
	t.Run("ErrActionInvalid", func(t *testing.T) {
		_, _, err := s.call("transaction", "people", "create", "{}")
		wantCode(t, err, "InvalidInput")
	})
}

func TestAPI_AccessPolicy(t *testing.T) {
	s := newSession(t)
	s.must("createTable", "people")
	t.Run("OK", func(t *testing.T) {
		s.must("setAccessPolicy", "people", "read", "2021-01-01T00:00:00Z", "", "r")
		if got := s.must("getAccessPolicy", "people"); got != `[{"id":"read","start":"2021-01-01T00:00:00Z","expiry":"","permission":"r"}]` {
			t.Fatalf("getAccessPolicy = %s", got)
		}
	})
	t.Run("ErrPolicyInvalid", func(t *testing.T) {
		_, _, err := s.call("setAccessPolicy", "people", "", "", "", "r")
		wantCode(t, err, "InvalidInput")
	})
	t.Run("ErrTableNotFound", func(t *testing.T) {
		_, _, err := s.call("getAccessPolicy", "nothere")
		wantCode(t, err, "TableNotFound")
	})
}

func TestDecodeRequest(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		args, err := decodeRequest(nil, frame("op", "1", "", "x\ny"))
		if err != nil || len(args) != 4 || string(args[3]) != "x\ny" || len(args[2]) != 0 {
			t.Fatalf("args = %q, %v", args, err)
		}
	})
	t.Run("OK/NoAllocation", func(t *testing.T) {
		// Averaged over 1,000 calls: a goroutine another test left running allocates in the
		// same process, and over 10 calls a few of its allocations made the average 6.
		req, room := frame("getEntity", "1", "t", "p", "r", ""), make([][]byte, 0, 8)
		if n := testing.AllocsPerRun(1000, func() { _, _ = decodeRequest(room, req) }); n != 0 {
			t.Fatalf("%v allocations with room for the arguments", n)
		}
	})
	for name, req := range map[string][]byte{
		"Short":         {1, 0},
		"TooFewArgs":    frame("op"),
		"LengthPastEnd": append(frame("op", "x")[:12], 'o', 'p'),
		"Trailing":      append(frame("op", "x"), 'z'),
	} {
		t.Run("ErrFrameInvalid/"+name, func(t *testing.T) {
			if _, err := decodeRequest(nil, req); !errors.Is(err, ErrFrameInvalid) {
				t.Fatalf("err = %v", err)
			}
		})
	}
}

type codedErr struct{}

func (codedErr) Error() string         { return "taken over" }
func (codedErr) AzureCode() azerr.Code { return azerr.Code{Name: "StoreLocked", Status: 409} }

func TestToAPIError(t *testing.T) {
	tests := []struct {
		name   string
		err    error
		code   string
		status int
	}{
		{"TableNotFound", core.ErrTableNotFound, "TableNotFound", 404},
		{"FieldError", &model.FieldError{Field: "RowKey", Err: model.ErrKeyInvalid}, "OutOfRangeInput", 400},
		{"Coded", errors.Join(errors.New("append change set"), codedErr{}), "StoreLocked", 409},
		{"Unknown", errors.New("boom"), "InternalError", 500},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if a := toAPIError(tt.err); a.Code != tt.code || a.Status != tt.status {
				t.Fatalf("toAPIError = %+v", a)
			}
		})
	}
}
