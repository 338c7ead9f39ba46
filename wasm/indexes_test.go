package main

import (
	"strings"
	"testing"
)

func TestStore_Indexes(t *testing.T) {
	s := newSession(t, "outbox")
	s.must("createTable", "Shop")
	for i, price := range []string{`1`, `2`, `"Price@odata.type":"Edm.Double","Price":2.0`, `"x"`} {
		if !strings.Contains(price, "Price") {
			price = `"Price":` + price
		}
		s.must("write", "Shop", "create", `{"PartitionKey":"p","RowKey":"`+string(rune('a'+i))+`",`+price+`}`, "")
	}
	t.Run("OK", func(t *testing.T) {
		if _, _, plan, _ := decodePageAnswer(t, []byte(s.must("queryEntities", "Shop", "Price eq 2", "", "0", "", ""))); plan != "table scan" {
			t.Fatalf("before the index: %s", plan)
		}
		json, records, err := s.call("createIndex", "Shop", "Price")
		if err != nil || json != "" || len(records) == 0 {
			t.Fatalf("createIndex: %q, %d records, %v", json, len(records), err)
		}
		_, _, plan, page := decodePageAnswer(t, []byte(s.must("queryEntities", "Shop", "Price eq 2", "", "0", "", "")))
		if plan != "index(Price) eq" || len(page) != 2 {
			t.Fatalf("with the index: %s, %+v", plan, page)
		}
		if got := s.must("listIndexes", "Shop"); got != `["Price"]` {
			t.Fatalf("listIndexes: %s", got)
		}
		s.must("dropIndex", "Shop", "Price")
		if got := s.must("listIndexes", "Shop"); got != `[]` {
			t.Fatalf("listIndexes after drop: %s", got)
		}
	})
	t.Run("ErrIndexNotFound", func(t *testing.T) {
		_, _, err := s.call("dropIndex", "Shop", "Price")
		wantCode(t, err, "ResourceNotFound")
	})
	t.Run("ErrPropertyNameInvalid", func(t *testing.T) {
		_, _, err := s.call("createIndex", "Shop", "RowKey")
		wantCode(t, err, "PropertyNameInvalid")
	})
	t.Run("ErrTableNotFound", func(t *testing.T) {
		_, _, err := s.call("listIndexes", "Nope")
		wantCode(t, err, "TableNotFound")
	})
}
