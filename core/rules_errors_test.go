package core_test

import (
	"errors"
	"testing"

	"github.com/tabletopdb/tabletop/core"
)

// Each rule of the data model fails with its own sentinel error, told apart with
// errors.Is. The one deliberate overlap: ErrPropertyNameReserved is also an
// ErrPropertyNameInvalid.
func TestRule_Errors_Distinct(t *testing.T) {
	sentinels := map[string]error{
		"ErrTableNameInvalid": core.ErrTableNameInvalid, "ErrTableNameReserved": core.ErrTableNameReserved,
		"ErrPropertyNameInvalid": core.ErrPropertyNameInvalid, "ErrPropertyNameReserved": core.ErrPropertyNameReserved,
		"ErrPropertyNameTooLong": core.ErrPropertyNameTooLong, "ErrKeyInvalid": core.ErrKeyInvalid,
		"ErrKeyTooLarge": core.ErrKeyTooLarge, "ErrKeyMissing": core.ErrKeyMissing,
		"ErrValueInvalid": core.ErrValueInvalid, "ErrValueOutOfRange": core.ErrValueOutOfRange,
		"ErrValueTooLarge": core.ErrValueTooLarge, "ErrTypeUnknown": core.ErrTypeUnknown,
		"ErrTooManyProperties": core.ErrTooManyProperties, "ErrEntityTooLarge": core.ErrEntityTooLarge,
		"ErrDuplicateProperty": core.ErrDuplicateProperty, "ErrTableExists": core.ErrTableExists,
		"ErrTableNotFound": core.ErrTableNotFound, "ErrEntityExists": core.ErrEntityExists,
		"ErrEntityNotFound": core.ErrEntityNotFound, "ErrPreconditionFailed": core.ErrPreconditionFailed,
		"ErrETagInvalid": core.ErrETagInvalid, "ErrTooManyPolicies": core.ErrTooManyPolicies,
		"ErrStoreClosed": core.ErrStoreClosed, "ErrTxReadOnly": core.ErrTxReadOnly,
		"ErrBatchEmpty": core.ErrBatchEmpty, "ErrBatchTooManyOperations": core.ErrBatchTooManyOperations,
		"ErrBatchPartitionMismatch": core.ErrBatchPartitionMismatch,
		"ErrBatchDuplicateRow":      core.ErrBatchDuplicateRow,
	}
	messages := map[string]string{}
	for name, err := range sentinels {
		if prev, dup := messages[err.Error()]; dup {
			t.Errorf("%s and %s share the message %q", name, prev, err.Error())
		}
		messages[err.Error()] = name
		for other, target := range sentinels {
			overlap := name == other || name == "ErrPropertyNameReserved" && other == "ErrPropertyNameInvalid"
			if errors.Is(err, target) != overlap {
				t.Errorf("errors.Is(%s, %s) = %v", name, other, !overlap)
			}
		}
	}
}

// Rule violations on a field say which field, and still match the rule's sentinel.
func TestRule_Errors_FieldError(t *testing.T) {
	cases := []struct {
		name, field string
		e           *core.Entity
		want        error
	}{
		{"PartitionKey", core.PartitionKeyName, &core.Entity{PartitionKey: "a?", RowKey: "r"}, core.ErrKeyInvalid},
		{"RowKey", core.RowKeyName, &core.Entity{PartitionKey: "p", RowKey: rep("a", 513)}, core.ErrKeyTooLarge},
		{"PropertyName", "a-b", &core.Entity{Properties: []core.Property{{Name: "a-b"}}}, core.ErrPropertyNameInvalid},
		{"PropertyValue", "Bin", &core.Entity{Properties: []core.Property{{Name: "Bin", Value: core.BinaryValue(make([]byte, 65537))}}}, core.ErrValueTooLarge},
		{"Duplicate", "A", &core.Entity{Properties: []core.Property{{Name: "A"}, {Name: "A"}}}, core.ErrDuplicateProperty},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.e.Validate()
			var fe *core.FieldError
			if !errors.As(err, &fe) || fe.Field != c.field || !errors.Is(err, c.want) {
				t.Fatalf("Validate = %v, want a FieldError for %q with %v", err, c.field, c.want)
			}
			if len(fe.Value) > 64+len("…") {
				t.Fatalf("FieldError.Value is %d bytes, want it shortened", len(fe.Value))
			}
		})
	}
}
