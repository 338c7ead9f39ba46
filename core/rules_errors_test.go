package core_test

import (
	"errors"
	"testing"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/model"
)

// Each rule of the data model fails with its own sentinel error, told apart with
// errors.Is. The one deliberate overlap: ErrPropertyNameReserved is also an
// ErrPropertyNameInvalid.
func TestRule_Errors_Distinct(t *testing.T) {
	sentinels := map[string]error{
		"ErrTableNameInvalid": model.ErrTableNameInvalid, "ErrTableNameReserved": model.ErrTableNameReserved,
		"ErrPropertyNameInvalid": model.ErrPropertyNameInvalid, "ErrPropertyNameReserved": model.ErrPropertyNameReserved,
		"ErrPropertyNameTooLong": model.ErrPropertyNameTooLong, "ErrKeyInvalid": model.ErrKeyInvalid,
		"ErrKeyTooLarge": model.ErrKeyTooLarge, "ErrKeyMissing": model.ErrKeyMissing,
		"ErrValueInvalid": model.ErrValueInvalid, "ErrValueOutOfRange": model.ErrValueOutOfRange,
		"ErrValueTooLarge": model.ErrValueTooLarge, "ErrTypeUnknown": model.ErrTypeUnknown,
		"ErrTooManyProperties": model.ErrTooManyProperties, "ErrEntityTooLarge": model.ErrEntityTooLarge,
		"ErrDuplicateProperty": model.ErrDuplicateProperty, "ErrTableExists": core.ErrTableExists,
		"ErrTableNotFound": core.ErrTableNotFound, "ErrEntityExists": core.ErrEntityExists,
		"ErrEntityNotFound": core.ErrEntityNotFound, "ErrPreconditionFailed": core.ErrPreconditionFailed,
		"ErrETagInvalid": model.ErrETagInvalid, "ErrTooManyPolicies": core.ErrTooManyPolicies,
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
		e           *model.Entity
		want        error
	}{
		{"PartitionKey", model.PartitionKeyName, &model.Entity{PartitionKey: "a?", RowKey: "r"}, model.ErrKeyInvalid},
		{"RowKey", model.RowKeyName, &model.Entity{PartitionKey: "p", RowKey: rep("a", 513)}, model.ErrKeyTooLarge},
		{"PropertyName", "a-b", &model.Entity{Properties: []model.Property{{Name: "a-b"}}}, model.ErrPropertyNameInvalid},
		{"PropertyValue", "Bin", &model.Entity{Properties: []model.Property{{Name: "Bin", Value: model.BinaryValue(make([]byte, 65537))}}}, model.ErrValueTooLarge},
		{"Duplicate", "A", &model.Entity{Properties: []model.Property{{Name: "A"}, {Name: "A"}}}, model.ErrDuplicateProperty},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.e.Validate()
			var fe *model.FieldError
			if !errors.As(err, &fe) || fe.Field != c.field || !errors.Is(err, c.want) {
				t.Fatalf("Validate = %v, want a FieldError for %q with %v", err, c.field, c.want)
			}
			if len(fe.Value) > 64+len("…") {
				t.Fatalf("FieldError.Value is %d bytes, want it shortened", len(fe.Value))
			}
		})
	}
}
