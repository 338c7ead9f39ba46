package wire

import (
	"errors"
	"strconv"
)

// Errors of request bodies. Errors about one property are *model.FieldError values that
// wrap these or core's sentinels (model.ErrValueInvalid, model.ErrValueOutOfRange,
// model.ErrTypeUnknown, model.ErrDuplicateProperty, model.ErrKeyMissing). A body naming more
// than maxMembers distinct properties fails early with model.ErrTooManyProperties.
var (
	// ErrJSONInvalid means a body is not well-formed JSON; the error is a *SyntaxError
	// with the byte offset.
	ErrJSONInvalid = errors.New("malformed JSON")
	// ErrNotObject means a body is JSON but not a JSON object.
	ErrNotObject = errors.New("JSON body is not an object")
	// ErrNestedValue means a property's value is a JSON object or array: entity
	// properties are primitive.
	ErrNestedValue = errors.New("property value is an object or array")
	// ErrAnnotationInvalid means a "Name@odata.type" annotation is not a string.
	ErrAnnotationInvalid = errors.New("odata.type annotation is not a string")
	// ErrTableNameMissing means a Create Table body has no TableName.
	ErrTableNameMissing = errors.New("body has no TableName")
)

// SyntaxError reports malformed JSON and where it is.
type SyntaxError struct {
	Offset int    // byte offset in the body
	Msg    string // what was wrong there
}

// Error implements error.
func (e *SyntaxError) Error() string {
	return "malformed JSON at byte " + strconv.Itoa(e.Offset) + ": " + e.Msg
}

// Unwrap returns ErrJSONInvalid, so errors.Is sees the sentinel.
func (e *SyntaxError) Unwrap() error { return ErrJSONInvalid }
