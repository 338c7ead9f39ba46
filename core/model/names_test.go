package model_test

import (
	"errors"
	"regexp"
	"strings"
	"testing"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/tabletopdb/tabletop/core/model"
)

var tableNamePattern = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9]{2,62}$`)

// FuzzValidateTableName checks ValidateTableName against the documented regular
// expression and the reserved name "tables".
func FuzzValidateTableName(f *testing.F) {
	for _, s := range []string{"abc", "ab", "Tables", "1abc", "a" + strings.Repeat("b", 62), "Ünï", "tables1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		err := model.ValidateTableName(name)
		switch {
		case !tableNamePattern.MatchString(name):
			wantErr(t, err, model.ErrTableNameInvalid)
		case strings.EqualFold(name, "tables"):
			wantErr(t, err, model.ErrTableNameReserved)
		default:
			wantErr(t, err, nil)
		}
	})
}

// FuzzValidatePropertyName checks that every accepted property name keeps the rules that
// can be stated without the Unicode tables, and that refusals use the property sentinels.
func FuzzValidatePropertyName(f *testing.F) {
	for _, s := range []string{"a", "_1", "a-b", "名前", "a\u0301", "PartitionKey", "a\uE000", "a\u0081", "\u00B5", strings.Repeat("a", 256)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		err := model.ValidatePropertyName(name)
		if err != nil {
			if !errors.Is(err, model.ErrPropertyNameInvalid) && !errors.Is(err, model.ErrPropertyNameTooLong) {
				t.Fatalf("ValidatePropertyName(%q) = %v", name, err)
			}
			return
		}
		if name == "" || !utf8.ValidString(name) || len(utf16.Encode([]rune(name))) > 255 {
			t.Fatalf("accepted %q", name)
		}
		if name == "PartitionKey" || name == "RowKey" || name == "Timestamp" {
			t.Fatalf("accepted the system name %q", name)
		}
		first, _ := utf8.DecodeRuneInString(name)
		if first != '_' && !unicode.IsLetter(first) && !unicode.Is(unicode.Nl, first) {
			t.Fatalf("accepted %q, which starts with %U", name, first)
		}
		for _, r := range name {
			if r == '-' || r == '.' || r == ' ' || unicode.IsControl(r) || unicode.Is(unicode.Co, r) ||
				unicode.Is(unicode.Cs, r) || r == 0xFFFE || r == 0xFFFF || unicode.IsSpace(r) || unicode.IsSymbol(r) {
				t.Fatalf("accepted %q, which holds %U", name, r)
			}
		}
	})
}
