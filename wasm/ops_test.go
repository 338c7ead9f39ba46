package main

import (
	"errors"
	"strings"
	"testing"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/azerr"
	"github.com/tabletopdb/tabletop/core/query"
)

func newStore(t *testing.T) *store {
	t.Helper()
	db, err := core.Open(core.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	s := &store{db: db}
	if err := s.createTable("people"); err != nil {
		t.Fatal(err)
	}
	return s
}

func TestStore_Write(t *testing.T) {
	s := newStore(t)
	t.Run("OK", func(t *testing.T) {
		etag, err := s.write("people", "create", `{"PartitionKey":"p","RowKey":"1","N@odata.type":"Edm.Int64","N":"9007199254740993"}`, "")
		if err != nil || !strings.HasPrefix(etag, `W/"datetime'`) {
			t.Fatalf("write = %q, %v", etag, err)
		}
		got, err := s.getEntity("people", "p", "1", "")
		if err != nil || !strings.Contains(string(got), `"N@odata.type":"Edm.Int64","N":"9007199254740993"`) {
			t.Fatalf("getEntity = %s, %v", got, err)
		}
	})
	t.Run("ErrActionInvalid", func(t *testing.T) {
		if _, err := s.write("people", "bogus", `{}`, ""); !errors.Is(err, ErrActionInvalid) {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("ErrEntityExists", func(t *testing.T) {
		_, err := s.write("people", "create", `{"PartitionKey":"p","RowKey":"1"}`, "")
		if a := toAPIError(err); a.Code != "EntityAlreadyExists" || a.Status != 409 {
			t.Fatalf("apiError = %+v", a)
		}
	})
}

func TestStore_QueryEntities(t *testing.T) {
	s := newStore(t)
	for _, rk := range []string{"a", "b", "c"} {
		if _, err := s.write("people", "create", `{"PartitionKey":"p","RowKey":"`+rk+`"}`, ""); err != nil {
			t.Fatal(err)
		}
	}
	t.Run("OK", func(t *testing.T) {
		got, err := s.queryEntities("people", "RowKey ne 'b'", "RowKey", 1, "", "")
		if err != nil || !strings.HasPrefix(string(got), `{"next":["`) || !strings.Contains(string(got), `"RowKey":"a"}]}}`) {
			t.Fatalf("queryEntities = %s, %v", got, err)
		}
	})
	t.Run("ErrSelectInvalid", func(t *testing.T) {
		if _, err := s.queryEntities("people", "", "a b", 0, "", ""); !errors.Is(err, query.ErrSelectInvalid) {
			t.Fatalf("err = %v", err)
		}
	})
}

func TestStore_Transaction(t *testing.T) {
	s := newStore(t)
	t.Run("OK", func(t *testing.T) {
		got, err := s.transaction("people", "create\ndelete", `{"PartitionKey":"p","RowKey":"1"}`+"\n"+`{"PartitionKey":"p","RowKey":"0"}`, "\n*")
		if a := toAPIError(err); err == nil || a.Index != 1 || a.Code != "ResourceNotFound" {
			t.Fatalf("transaction = %s, %+v", got, a)
		}
		got, err = s.transaction("people", "create\nupsertMerge", `{"PartitionKey":"p","RowKey":"1"}`+"\n"+`{"PartitionKey":"p","RowKey":"2"}`, "\n")
		if err != nil || strings.Count(string(got), `W/\"datetime`) != 2 {
			t.Fatalf("transaction = %s, %v", got, err)
		}
	})
	t.Run("ErrBatchEmpty", func(t *testing.T) {
		if _, err := s.transaction("people", "", "", ""); !errors.Is(err, core.ErrBatchEmpty) {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("ErrActionInvalid", func(t *testing.T) {
		if _, err := s.transaction("people", "create\ncreate", "{}", "\n"); !errors.Is(err, ErrActionInvalid) {
			t.Fatalf("err = %v", err)
		}
	})
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
		{"FieldError", &core.FieldError{Field: "RowKey", Err: core.ErrKeyInvalid}, "OutOfRangeInput", 400},
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
