package core_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/core/stored"
)

// The rules tests cite the sections of Microsoft's "Understanding the Table service data
// model" in their names:
// TestRule_<Section>_<Rule>. Each rule is checked at its limits: exactly at the limit
// accepted, one over rejected with the rule's own sentinel error.

// newRuleStore opens an in-memory store with the given tables.
func newRuleStore(t testing.TB, opts core.Options, tables ...string) *core.Store {
	t.Helper()
	s, err := core.Open(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	for _, name := range tables {
		if _, err := s.CreateTable(name); err != nil {
			t.Fatalf("create table %q: %v", name, err)
		}
	}
	return s
}

// frozenClock returns an Options.Now that always answers the same instant.
func frozenClock(t time.Time) func() time.Time { return func() time.Time { return t } }

// props builds n Boolean properties named p0, p1, ...
func props(n int) []model.Property {
	out := make([]model.Property, n)
	for i := range out {
		out[i] = model.Property{Name: "p" + itoa(i), Value: model.BoolValue(i%2 == 0)}
	}
	return out
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	var b []byte
	for ; i > 0; i /= 10 {
		b = append([]byte{byte('0' + i%10)}, b...)
	}
	return string(b)
}

// insert inserts an entity and fails the test on error.
func insert(t testing.TB, s *core.Store, table string, e *model.Entity) *model.Entity {
	t.Helper()
	out, err := s.Apply(table, core.Op{Kind: core.OpInsert, Entity: e})
	if err != nil {
		t.Fatalf("insert (%q, %q): %v", e.PartitionKey, e.RowKey, err)
	}
	return out
}

// wantErr fails the test unless errors.Is(err, want); want nil means no error.
func wantErr(t testing.TB, err, want error) {
	t.Helper()
	if want == nil && err != nil || want != nil && !errors.Is(err, want) {
		t.Fatalf("err = %v, want %v", err, want)
	}
}

// scanAll returns every entity of a table in key order.
func scanAll(t testing.TB, s *core.Store, table string) []*model.Entity {
	t.Helper()
	var out []*model.Entity
	err := s.View(func(tx *core.Tx) error {
		return tx.Scan(table, stored.WholeTable, func(e *model.Entity) bool {
			out = append(out, e)
			return true
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// tableNames lists the tables of a store as their names were created.
func tableNames(t testing.TB, s *core.Store) []string {
	t.Helper()
	var names []string
	err := s.View(func(tx *core.Tx) error {
		return tx.Tables("", func(tb *core.Table) bool {
			names = append(names, tb.Name)
			return true
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	return names
}

// emoji is U+1F600, two UTF-16 code units and four UTF-8 bytes.
const emoji = "\U0001F600"

func rep(s string, n int) string { return strings.Repeat(s, n) }
