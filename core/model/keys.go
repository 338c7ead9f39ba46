package model

import "unicode/utf8"

// ValidateKey checks a PartitionKey or RowKey (field names which): valid UTF-8, at most
// 1 KiB as UTF-16, and none of / \ # ? U+0000–U+001F U+007F–U+009F. The empty key is valid.
func ValidateKey(field, key string) error {
	if 2*UTF16Len(key) > MaxKeyBytes {
		return &FieldError{Field: field, Value: Shorten(key), Err: ErrKeyTooLarge}
	}
	if !utf8.ValidString(key) {
		return &FieldError{Field: field, Value: Shorten(key), Err: ErrKeyInvalid}
	}
	for _, r := range key {
		if r == '/' || r == '\\' || r == '#' || r == '?' || r <= 0x1f || (r >= 0x7f && r <= 0x9f) {
			return &FieldError{Field: field, Value: Shorten(key), Err: ErrKeyInvalid}
		}
	}
	return nil
}

// Shorten cuts a value to at most 64 bytes, on a character boundary, for an error
// message.
func Shorten(s string) string {
	if len(s) <= 64 {
		return s
	}
	cut := 64
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// Key names one entity of a table.
type Key struct {
	PartitionKey string
	RowKey       string
}
