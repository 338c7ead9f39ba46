package model

import "errors"

// Errors of names and keys.
var (
	// ErrTableNameInvalid means a table name does not match ^[A-Za-z][A-Za-z0-9]{2,62}$.
	ErrTableNameInvalid = errors.New("table name must be 3 to 63 letters or digits and start with a letter")
	// ErrTableNameReserved means a table name is one the service reserves, such as "tables".
	ErrTableNameReserved = errors.New("table name is reserved")
	// ErrPropertyNameInvalid means a property name breaks the C# identifier rules, is not
	// valid in XML, or uses a reserved system name.
	ErrPropertyNameInvalid = errors.New("property name is not a valid identifier")
	// ErrPropertyNameReserved means a custom property takes the name of a system property
	// (PartitionKey, RowKey, Timestamp). It is also an ErrPropertyNameInvalid.
	ErrPropertyNameReserved error = &kindError{"property name is reserved for a system property", ErrPropertyNameInvalid}
	// ErrPropertyNameTooLong means a property name is longer than 255 characters.
	ErrPropertyNameTooLong = errors.New("property name is longer than 255 characters")
	// ErrKeyInvalid means a PartitionKey or RowKey contains a character that keys may not
	// contain: / \ # ? or a control character.
	ErrKeyInvalid = errors.New("key contains a character that is not allowed")
	// ErrKeyTooLarge means a PartitionKey or RowKey is larger than 1 KiB.
	ErrKeyTooLarge = errors.New("key is larger than 1 KiB")
	// ErrKeyMissing means an entity lacks its PartitionKey or RowKey.
	ErrKeyMissing = errors.New("entity must have a PartitionKey and a RowKey")
)

// Errors of values and entities.
var (
	// ErrValueInvalid means a value cannot be parsed as its declared EDM type.
	ErrValueInvalid = errors.New("value is not valid for its type")
	// ErrValueOutOfRange means a value is outside its type's range, such as a DateTime
	// before 1601.
	ErrValueOutOfRange = errors.New("value is out of range for its type")
	// ErrValueTooLarge means a String or Binary value is larger than 64 KiB.
	ErrValueTooLarge = errors.New("property value is larger than 64 KiB")
	// ErrTypeUnknown means a type name is not one of the eight EDM types.
	ErrTypeUnknown = errors.New("unknown property type")
	// ErrTooManyProperties means an entity has more than 252 custom properties.
	ErrTooManyProperties = errors.New("entity has more than 255 properties")
	// ErrEntityTooLarge means an entity is larger than 1 MiB by Azure's size formula.
	ErrEntityTooLarge = errors.New("entity is larger than 1 MiB")
	// ErrDuplicateProperty means an entity names one property twice.
	ErrDuplicateProperty = errors.New("property is specified more than once")
	// ErrETagInvalid means an ETag is neither "*" nor of the form W/"datetime'…'".
	ErrETagInvalid = errors.New("etag is malformed")
)

// FieldError names the property or key that broke a rule and the value it had.
type FieldError struct {
	Field string // property name, "PartitionKey" or "RowKey"
	Value string // the offending value as text, possibly shortened
	Err   error  // which rule
}

// Error implements error.
func (e *FieldError) Error() string { return e.Field + ": " + e.Err.Error() }

// Unwrap returns the rule that was broken.
func (e *FieldError) Unwrap() error { return e.Err }

// kindError is a sentinel error that is a special case of a broader one: errors.Is
// matches both.
type kindError struct {
	msg  string
	kind error
}

// Error implements error.
func (e *kindError) Error() string { return e.msg }

// Unwrap returns the broader error.
func (e *kindError) Unwrap() error { return e.kind }
