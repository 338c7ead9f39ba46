package core_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/model"
)

// The data model, "Property names": case-sensitive, at most 255 characters, C# identifier
// rules, valid in XML, no dash, not a system property name, no characters invalid in URLs
// (U+E000, control characters 0x00-0x1F, U+0081, ...).

func TestRule_PropertyName_CSharpIdentifier(t *testing.T) {
	cases := []struct {
		name, text string
		want       error
	}{
		{"OK/letter", "a", nil},
		{"OK/underscore", "_", nil},
		{"OK/underscoreDigit", "_1", nil},
		{"OK/digitAfterFirst", "a1", nil},
		{"OK/mixedCase", "FirstName", nil},
		{"OK/latin", "Ünïcödé", nil},
		{"OK/cjk", "名前", nil},
		{"OK/combiningMark", "a\u0301", nil},
		{"OK/zeroWidthJoiner", "a\u200Db", nil},
		{"OK/connector", "a\u203Fb", nil},
		{"OK/astral", "\U00010400x", nil},
		{"ErrPropertyNameInvalid/empty", "", model.ErrPropertyNameInvalid},
		{"ErrPropertyNameInvalid/leadingDigit", "1a", model.ErrPropertyNameInvalid},
		{"ErrPropertyNameInvalid/leadingMark", "\u0301a", model.ErrPropertyNameInvalid},
		{"ErrPropertyNameInvalid/dash", "a-b", model.ErrPropertyNameInvalid},
		{"ErrPropertyNameInvalid/space", "a b", model.ErrPropertyNameInvalid},
		{"ErrPropertyNameInvalid/dot", "odata.etag", model.ErrPropertyNameInvalid},
		{"ErrPropertyNameInvalid/annotation", "Age@odata.type", model.ErrPropertyNameInvalid},
		{"ErrPropertyNameInvalid/dollar", "$a", model.ErrPropertyNameInvalid},
		{"ErrPropertyNameInvalid/invalidUTF8", "a\xff", model.ErrPropertyNameInvalid},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { wantErr(t, model.ValidatePropertyName(c.text), c.want) })
	}
}

func TestRule_PropertyName_XMLAndURLInvalid(t *testing.T) {
	cases := []struct{ name, text string }{
		{"U+E000", "a\uE000"},
		{"U+E000first", "\uE000"},
		{"U+0000", "a\x00"},
		{"U+0009", "a\tb"},
		{"U+001F", "a\x1f"},
		{"U+007F", "a\x7f"},
		{"U+0081", "a\u0081"},
		{"U+009F", "a\u009f"},
		{"U+FFFE", "a\uFFFE"},
		{"U+FFFF", "a\uFFFF"},
		{"U+F0000", "a\U000F0000"},
		{"U+00AD", "a\u00ADb"}, // a C# formatting character, not an XML name character
		{"U+200B", "a\u200Bb"}, // likewise
		{"U+00B5", "\u00B5s"},  // a C# letter that cannot start an XML name
		{"U+2054", "a\u2054b"}, // C# connecting punctuation, not an XML name character
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			wantErr(t, model.ValidatePropertyName(c.text), model.ErrPropertyNameInvalid)
		})
	}
}

func TestRule_PropertyName_255(t *testing.T) {
	astral := "\U00010400" // DESERET CAPITAL LONG I: a letter, two UTF-16 code units
	cases := []struct {
		name, text string
		want       error
	}{
		{"OK/255", "a" + rep("b", 254), nil},
		{"OK/255units", "a" + rep(astral, 127), nil},
		{"OK/255bmp", rep("名", 255), nil}, // 765 UTF-8 bytes, 255 characters
		{"ErrPropertyNameTooLong/256", "a" + rep("b", 255), model.ErrPropertyNameTooLong},
		{"ErrPropertyNameTooLong/256units", rep(astral, 128), model.ErrPropertyNameTooLong},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { wantErr(t, model.ValidatePropertyName(c.text), c.want) })
	}
}

func TestRule_PropertyName_SystemNamesReserved(t *testing.T) {
	for _, name := range []string{"PartitionKey", "RowKey", "Timestamp"} {
		t.Run(name, func(t *testing.T) {
			err := model.ValidatePropertyName(name)
			wantErr(t, err, model.ErrPropertyNameReserved)
			wantErr(t, err, model.ErrPropertyNameInvalid) // the broader rule
			e := &model.Entity{PartitionKey: "p", RowKey: "r", Properties: []model.Property{{Name: name, Value: model.StringValue("x")}}}
			var fe *model.FieldError
			if err := e.Validate(); !errors.As(err, &fe) || fe.Field != name || !errors.Is(err, model.ErrPropertyNameReserved) {
				t.Fatalf("Validate = %v, want a FieldError for %s", err, name)
			}
		})
	}
	// Property names are case-sensitive, so other spellings are ordinary names.
	for _, name := range []string{"partitionKey", "ROWKEY", "timestamp"} {
		wantErr(t, model.ValidatePropertyName(name), nil)
	}
}

func TestRule_PropertyName_CaseSensitive(t *testing.T) {
	s := newRuleStore(t, core.Options{}, "Tab")
	t.Run("OK", func(t *testing.T) {
		insert(t, s, "Tab", &model.Entity{PartitionKey: "p", RowKey: "r", Properties: []model.Property{
			{Name: "Name", Value: model.StringValue("upper")},
			{Name: "name", Value: model.StringValue("lower")},
		}})
		got, err := s.Get("Tab", "p", "r")
		if err != nil {
			t.Fatal(err)
		}
		up, _ := got.Get("Name")
		low, _ := got.Get("name")
		if up.Str() != "upper" || low.Str() != "lower" || len(got.Properties) != 2 {
			t.Fatalf("got %+v", got.Properties)
		}
	})
	t.Run("ErrDuplicateProperty", func(t *testing.T) {
		e := &model.Entity{PartitionKey: "p", RowKey: "d", Properties: []model.Property{
			{Name: "Name", Value: model.StringValue("a")},
			{Name: "Name", Value: model.Int32Value(1)},
		}}
		_, err := s.Apply("Tab", core.Op{Kind: core.OpInsert, Entity: e})
		wantErr(t, err, model.ErrDuplicateProperty)
		// Few names are compared with each other, many looked up in a map: both find it.
		for _, n := range []int{3, 16, 17, 40} {
			e := &model.Entity{PartitionKey: "p", RowKey: "d"}
			for i := range n {
				e.Properties = append(e.Properties, model.Property{Name: fmt.Sprintf("P%d", i), Value: model.Int32Value(1)})
			}
			if _, err := s.Apply("Tab", core.Op{Kind: core.OpInsertOrReplace, Entity: e}); err != nil {
				t.Fatalf("%d distinct names: %v", n, err)
			}
			e.Properties = append(e.Properties, model.Property{Name: fmt.Sprintf("P%d", n/2), Value: model.Int32Value(2)})
			_, err := s.Apply("Tab", core.Op{Kind: core.OpInsertOrReplace, Entity: e})
			var fe *model.FieldError
			if !errors.As(err, &fe) || !errors.Is(err, model.ErrDuplicateProperty) || fe.Field != fmt.Sprintf("P%d", n/2) {
				t.Fatalf("%d names and a duplicate: %v", n, err)
			}
		}
	})
}
