package core

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// The names of the system properties every entity has.
const (
	PartitionKeyName = "PartitionKey"
	RowKeyName       = "RowKey"
	TimestampName    = "Timestamp"
)

// reservedTableNames are names a table may not take, compared case-insensitively.
var reservedTableNames = map[string]bool{"tables": true}

// ValidateTableName checks a table name: 3 to 63 ASCII letters and digits, starting with a
// letter, and not a reserved name such as "tables".
func ValidateTableName(name string) error {
	if len(name) < 3 || len(name) > 63 || !isASCIILetter(name[0]) {
		return ErrTableNameInvalid
	}
	for i := 1; i < len(name); i++ {
		if !isASCIILetter(name[i]) && !(name[i] >= '0' && name[i] <= '9') {
			return ErrTableNameInvalid
		}
	}
	if reservedTableNames[strings.ToLower(name)] {
		return ErrTableNameReserved
	}
	return nil
}

func isASCIILetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// tableID is the case-folded form of a table name under which the table is stored, so that
// names compare case-insensitively while the name as created is kept in the table record.
func tableID(name string) string { return strings.ToLower(name) }

// ValidatePropertyName checks a custom property name: a C# identifier (a letter or "_",
// then letters, digits, connecting punctuation, combining marks or formatting characters)
// of at most 255 characters, which also excludes "-", control characters and characters
// that are invalid in XML or URLs, such as U+E000; and not a system property name.
func ValidatePropertyName(name string) error {
	if UTF16Len(name) > MaxPropertyNameLen {
		return ErrPropertyNameTooLong
	}
	if name == "" || !utf8.ValidString(name) || isSystemProperty(name) {
		return ErrPropertyNameInvalid
	}
	for i, r := range name {
		if !isIdentifierRune(r, i == 0) {
			return ErrPropertyNameInvalid
		}
	}
	return nil
}

func isSystemProperty(name string) bool {
	return name == PartitionKeyName || name == RowKeyName || name == TimestampName
}

// isIdentifierRune applies the C# identifier character classes.
func isIdentifierRune(r rune, first bool) bool {
	if r == '_' || unicode.In(r, unicode.Lu, unicode.Ll, unicode.Lt, unicode.Lm, unicode.Lo, unicode.Nl) {
		return true
	}
	if first {
		return false
	}
	return unicode.In(r, unicode.Nd, unicode.Pc, unicode.Mn, unicode.Mc, unicode.Cf)
}
