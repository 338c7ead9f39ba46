package query

import (
	"encoding/base64"

	"github.com/tabletopdb/tabletop/core/model"
)

// Continuation tokens are opaque to clients: base64url (no padding) of a version byte, a
// kind byte and the key of the last position a page covered. A query resumes just after
// that position, so a token stays valid when that entity or table has since been deleted.
const (
	tokenVersion  = 1
	kindPartition = 'P'
	kindRow       = 'R'
	kindTable     = 'T'

	// maxTokenLen bounds the text of a token: a key of 1 KiB as UTF-16 is at most 1.5 KiB
	// of UTF-8, which base64 turns into 2 KiB.
	maxTokenLen = 4096
)

var tokenEncoding = base64.RawURLEncoding.Strict()

func encodeToken(kind byte, key string) string {
	b := make([]byte, 0, 2+len(key))
	b = append(b, tokenVersion, kind)
	b = append(b, key...)
	return tokenEncoding.EncodeToString(b)
}

func decodeToken(kind byte, tok string) (string, error) {
	if len(tok) > maxTokenLen || !isBase64URL(tok) {
		return "", ErrTokenInvalid
	}
	b, err := tokenEncoding.DecodeString(tok)
	if err != nil || len(b) < 2 || b[0] != tokenVersion || b[1] != kind {
		return "", ErrTokenInvalid
	}
	return string(b[2:]), nil
}

// isBase64URL reports whether s uses only the base64url alphabet: the decoder would
// otherwise skip line breaks, and two texts would name one token.
func isBase64URL(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// EncodeContinuation returns the NextPartitionKey and NextRowKey tokens that resume a
// query just after entity (pk, rk).
func EncodeContinuation(pk, rk string) (nextPK, nextRK string) {
	return encodeToken(kindPartition, pk), encodeToken(kindRow, rk)
}

// DecodeContinuation decodes the NextPartitionKey and NextRowKey tokens of a request into
// the entity (pk, rk) to resume after. Two empty tokens mean the start of the query
// (ok is false); a lone token, a token this package did not make, or one naming a key the
// data model forbids is ErrTokenInvalid.
func DecodeContinuation(nextPK, nextRK string) (pk, rk string, ok bool, err error) {
	if nextPK == "" && nextRK == "" {
		return "", "", false, nil
	}
	pk, err = decodeToken(kindPartition, nextPK)
	if err != nil {
		return "", "", false, err
	}
	rk, err = decodeToken(kindRow, nextRK)
	if err != nil {
		return "", "", false, err
	}
	if model.ValidateKey(model.PartitionKeyName, pk) != nil || model.ValidateKey(model.RowKeyName, rk) != nil {
		return "", "", false, ErrTokenInvalid
	}
	return pk, rk, true, nil
}

// EncodeTableToken returns the NextTableName token that resumes Query Tables just after
// the table named name.
func EncodeTableToken(name string) string { return encodeToken(kindTable, name) }

// DecodeTableToken decodes a NextTableName token into the table name to resume after.
// The empty token means the start (ok is false).
func DecodeTableToken(tok string) (name string, ok bool, err error) {
	if tok == "" {
		return "", false, nil
	}
	name, err = decodeToken(kindTable, tok)
	if err != nil {
		return "", false, err
	}
	if model.ValidateTableName(name) != nil {
		return "", false, ErrTokenInvalid
	}
	return name, true, nil
}
