package core_test

import (
	"slices"
	"testing"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/model"
)

// The data model, "Table names": ^[A-Za-z][A-Za-z0-9]{2,62}$, reserved names such as
// "tables" (any case), unique case-insensitively, case kept as created.

func TestRule_TableName_Pattern(t *testing.T) {
	cases := []struct {
		name string
		want error
	}{
		{"abc", nil},                      // 3 characters: the shortest
		{"A" + rep("b", 62), nil},         // 63 characters: the longest
		{"A12", nil},                      // digits after the first letter
		{"MixedCase9", nil},               //
		{"tablesx", nil},                  // only "tables" itself is reserved
		{"xtables", nil},                  //
		{"ab", model.ErrTableNameInvalid}, // 2 characters: one under
		{"A" + rep("b", 63), model.ErrTableNameInvalid}, // 64 characters: one over
		{"", model.ErrTableNameInvalid},
		{"1abc", model.ErrTableNameInvalid}, // starts with a digit
		{"ab-c", model.ErrTableNameInvalid},
		{"ab_c", model.ErrTableNameInvalid},
		{"ab c", model.ErrTableNameInvalid},
		{"äbc", model.ErrTableNameInvalid}, // alphanumeric means ASCII
		{"abç", model.ErrTableNameInvalid},
		{"abc\x00", model.ErrTableNameInvalid},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { wantErr(t, model.ValidateTableName(c.name), c.want) })
	}
}

func TestRule_TableName_ReservedTables(t *testing.T) {
	s := newRuleStore(t, core.Options{})
	for _, name := range []string{"tables", "Tables", "TABLES", "tAbLeS"} {
		t.Run(name, func(t *testing.T) {
			wantErr(t, model.ValidateTableName(name), model.ErrTableNameReserved)
			_, err := s.CreateTable(name)
			wantErr(t, err, model.ErrTableNameReserved)
		})
	}
	if got := tableNames(t, s); len(got) != 0 {
		t.Fatalf("tables = %q, want none", got)
	}
}

func TestRule_TableName_UniqueCaseInsensitive(t *testing.T) {
	s := newRuleStore(t, core.Options{}, "Foo")
	for _, name := range []string{"Foo", "foo", "FOO", "fOO"} {
		t.Run("ErrTableExists/"+name, func(t *testing.T) {
			_, err := s.CreateTable(name)
			wantErr(t, err, core.ErrTableExists)
		})
	}
	if got := tableNames(t, s); !slices.Equal(got, []string{"Foo"}) {
		t.Fatalf("tables = %q, want [Foo]", got)
	}
}

func TestRule_TableName_CasePreserved(t *testing.T) {
	s := newRuleStore(t, core.Options{}, "Foo", "bar", "BAZ")
	t.Run("Lookup", func(t *testing.T) {
		for _, name := range []string{"Foo", "foo", "FOO"} {
			err := s.View(func(tx *core.Tx) error {
				tb, err := tx.Table(name)
				if err == nil && tb.Name != "Foo" {
					t.Errorf("Table(%q).Name = %q, want Foo", name, tb.Name)
				}
				return err
			})
			wantErr(t, err, nil)
		}
	})
	t.Run("List", func(t *testing.T) {
		// Listed in case-insensitive order, each with the case it was created with.
		if got := tableNames(t, s); !slices.Equal(got, []string{"bar", "BAZ", "Foo"}) {
			t.Fatalf("tables = %q", got)
		}
	})
	t.Run("Entities", func(t *testing.T) {
		insert(t, s, "FOO", &model.Entity{PartitionKey: "p", RowKey: "r"})
		if _, err := s.Get("foo", "p", "r"); err != nil {
			t.Fatal(err)
		}
		if n := len(scanAll(t, s, "Foo")); n != 1 {
			t.Fatalf("scan Foo: %d entities, want 1", n)
		}
	})
	t.Run("ErrTableNotFound", func(t *testing.T) {
		_, err := s.Get("Fooo", "p", "r")
		wantErr(t, err, core.ErrTableNotFound)
	})
}

func TestRule_Table_DeleteDeletesEntities(t *testing.T) {
	s := newRuleStore(t, core.Options{}, "Foo", "Foobar")
	for _, tb := range []string{"Foo", "Foobar"} {
		insert(t, s, tb, &model.Entity{PartitionKey: "p", RowKey: "1"})
		insert(t, s, tb, &model.Entity{PartitionKey: "q", RowKey: "2"})
	}
	if err := s.DeleteTable("FOO"); err != nil {
		t.Fatal(err)
	}
	_, err := s.Get("Foo", "p", "1")
	wantErr(t, err, core.ErrTableNotFound)
	if _, err := s.CreateTable("foo"); err != nil {
		t.Fatal(err)
	}
	if got := scanAll(t, s, "foo"); len(got) != 0 {
		t.Fatalf("recreated table holds %d entities, want 0", len(got))
	}
	_, err = s.Get("foo", "p", "1")
	wantErr(t, err, core.ErrEntityNotFound)
	if got := scanAll(t, s, "Foobar"); len(got) != 2 {
		t.Fatalf("Foobar holds %d entities, want 2 (a table whose name extends the deleted one)", len(got))
	}
	if got := tableNames(t, s); !slices.Equal(got, []string{"foo", "Foobar"}) {
		t.Fatalf("tables = %q", got)
	}
	wantErr(t, s.DeleteTable("Foo2"), core.ErrTableNotFound)
}

func TestRule_Account_AnyNumberOfTables(t *testing.T) {
	s := newRuleStore(t, core.Options{})
	const n = 300
	for i := range n {
		if _, err := s.CreateTable("t" + itoa(i) + "x"); err != nil {
			t.Fatal(err)
		}
	}
	if got := len(tableNames(t, s)); got != n {
		t.Fatalf("%d tables, want %d", got, n)
	}
}

// TestRule_Table_Incarnation: every table created gets an incarnation of its own, which
// changing its access policies keeps (a move keeps it too: TestStore_AdoptFeed resumes a
// checkpoint in the new store), and a table deleted and created again under the same name
// gets another.
func TestRule_Table_Incarnation(t *testing.T) {
	s := newRuleStore(t, core.Options{})
	incarnation := func(name string) model.Guid {
		t.Helper()
		var g model.Guid
		err := s.View(func(tx *core.Tx) error {
			tb, err := tx.Table(name)
			if err == nil {
				g = tb.Incarnation
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	created, err := s.CreateTable("Foo")
	if err != nil || created.Incarnation == (model.Guid{}) {
		t.Fatalf("CreateTable = %+v, %v; want an incarnation", created, err)
	}
	if got := incarnation("foo"); got != created.Incarnation {
		t.Fatalf("stored incarnation %v, created %v", got, created.Incarnation)
	}
	if err := s.Update(func(tx *core.Tx) error {
		return tx.SetAccessPolicies("Foo", []core.AccessPolicy{{ID: "p", Permission: "r"}})
	}); err != nil {
		t.Fatal(err)
	}
	if got := incarnation("Foo"); got != created.Incarnation {
		t.Fatalf("after SetAccessPolicies: %v, want %v", got, created.Incarnation)
	}
	if err := s.DeleteTable("Foo"); err != nil {
		t.Fatal(err)
	}
	again, err := s.CreateTable("Foo")
	if err != nil || again.Incarnation == created.Incarnation || again.Incarnation == (model.Guid{}) {
		t.Fatalf("created again: %+v, %v; want another incarnation than %v", again, err, created.Incarnation)
	}
	other, err := s.CreateTable("Bar")
	if err != nil || other.Incarnation == again.Incarnation {
		t.Fatalf("another table: %+v, %v", other, err)
	}
}
