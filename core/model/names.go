package model

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// reservedTableName is the name a table may not take, compared case-insensitively.
const reservedTableName = "tables"

// The names of the system properties every entity has.
const (
	PartitionKeyName = "PartitionKey"
	RowKeyName       = "RowKey"
	TimestampName    = "Timestamp"
)

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
	if strings.EqualFold(name, reservedTableName) {
		return ErrTableNameReserved
	}
	return nil
}

func isASCIILetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// ValidatePropertyName checks a custom property name: a C# identifier (a letter or "_",
// then letters, digits, connecting punctuation, combining marks or formatting characters)
// of at most 255 characters that is also an XML name, which excludes "-", control
// characters and characters that are invalid in XML or URLs, such as U+E000; and not a
// system property name (ErrPropertyNameReserved).
func ValidatePropertyName(name string) error {
	if UTF16Len(name) > MaxPropertyNameLen {
		return ErrPropertyNameTooLong
	}
	if isSystemProperty(name) {
		return ErrPropertyNameReserved
	}
	if name == "" {
		return ErrPropertyNameInvalid
	}
	if valid, ascii := asciiPropertyName(name); ascii {
		if !valid {
			return ErrPropertyNameInvalid
		}
		return nil
	}
	if !utf8.ValidString(name) {
		return ErrPropertyNameInvalid
	}
	for i, r := range name {
		if !isIdentifierRune(r, i == 0) || !isXMLNameRune(r, i == 0) {
			return ErrPropertyNameInvalid
		}
	}
	return nil
}

// asciiPropertyName checks a name of ASCII characters only (ascii is false for any other)
// without the Unicode tables: among ASCII characters, the identifier and XML name rules
// leave a letter or "_" first, then letters, digits and "_".
func asciiPropertyName(name string) (valid, ascii bool) {
	valid = true
	for i := 0; i < len(name); i++ {
		c := name[i]
		if c >= utf8.RuneSelf {
			return false, false
		}
		letter := 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_'
		valid = valid && (letter || i > 0 && '0' <= c && c <= '9')
	}
	return valid, true
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

// isXMLNameRune applies XML 1.0's NameStartChar and NameChar productions.
func isXMLNameRune(r rune, first bool) bool {
	return unicode.Is(xmlNameStart, r) || !first && unicode.Is(xmlNameRest, r)
}

// xmlNameStart is XML 1.0's NameStartChar.
var xmlNameStart = &unicode.RangeTable{
	R16: []unicode.Range16{
		{Lo: ':', Hi: ':', Stride: 1}, {Lo: 'A', Hi: 'Z', Stride: 1}, {Lo: '_', Hi: '_', Stride: 1},
		{Lo: 'a', Hi: 'z', Stride: 1}, {Lo: 0xC0, Hi: 0xD6, Stride: 1}, {Lo: 0xD8, Hi: 0xF6, Stride: 1},
		{Lo: 0xF8, Hi: 0x2FF, Stride: 1}, {Lo: 0x370, Hi: 0x37D, Stride: 1}, {Lo: 0x37F, Hi: 0x1FFF, Stride: 1},
		{Lo: 0x200C, Hi: 0x200D, Stride: 1}, {Lo: 0x2070, Hi: 0x218F, Stride: 1}, {Lo: 0x2C00, Hi: 0x2FEF, Stride: 1},
		{Lo: 0x3001, Hi: 0xD7FF, Stride: 1}, {Lo: 0xF900, Hi: 0xFDCF, Stride: 1}, {Lo: 0xFDF0, Hi: 0xFFFD, Stride: 1},
	},
	R32: []unicode.Range32{{Lo: 0x10000, Hi: 0xEFFFF, Stride: 1}},
}

// xmlNameRest is what XML 1.0's NameChar adds to NameStartChar.
var xmlNameRest = &unicode.RangeTable{
	R16: []unicode.Range16{
		{Lo: '-', Hi: '.', Stride: 1}, {Lo: '0', Hi: '9', Stride: 1}, {Lo: 0xB7, Hi: 0xB7, Stride: 1},
		{Lo: 0x300, Hi: 0x36F, Stride: 1}, {Lo: 0x203F, Hi: 0x2040, Stride: 1},
	},
}
