package main

import (
	"errors"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/query"
	"github.com/tabletopdb/tabletop/core/wire"
)

// Errors the bindings raise themselves.
var (
	// ErrStoreNotOpen means a call named a store handle that is not open.
	ErrStoreNotOpen = errors.New("store is not open")
	// ErrActionInvalid means a transaction action or an update mode is not one the API knows.
	ErrActionInvalid = errors.New("action or update mode is invalid")
)

// apiError is an error as the JavaScript API reports it: Azure's code, the HTTP status
// the service would answer with, and a message.
type apiError struct {
	Status  int
	Code    string
	Message string
	Index   int // the failing action of a transaction; -1 otherwise
}

// Coded is an error that carries its own Azure-style code and status, such as a failure
// of the JavaScript storage (idbstore.Error, code "StoreLocked" when another tab took the
// database over).
type Coded interface {
	error
	ErrorCode() (code string, status int)
}

const (
	msgInvalidInput = "One of the request inputs is not valid."
	msgOutOfRange   = "One of the request inputs is out of range."
)

// errorTable maps errors to what the API reports, tested in order with errors.Is. It is
// the only place where the bindings choose codes and statuses; they are those of the
// REST layer (worker/rest/errors.go) so that the browser and the server agree.
var errorTable = []struct {
	err error
	api apiError
}{
	{core.ErrTableExists, apiError{409, "TableAlreadyExists", "The table specified already exists.", -1}},
	{core.ErrTableNotFound, apiError{404, "TableNotFound", "The table specified does not exist.", -1}},
	{core.ErrEntityExists, apiError{409, "EntityAlreadyExists", "The specified entity already exists.", -1}},
	{core.ErrEntityNotFound, apiError{404, "ResourceNotFound", "The specified resource does not exist.", -1}},
	{core.ErrPreconditionFailed, apiError{412, "UpdateConditionNotSatisfied", "The update condition specified in the request was not satisfied.", -1}},
	{core.ErrETagInvalid, apiError{400, "InvalidInput", msgInvalidInput, -1}},
	{core.ErrTableNameInvalid, apiError{400, "InvalidResourceName", "The specifed resource name contains invalid characters.", -1}},
	{core.ErrTableNameReserved, apiError{400, "InvalidResourceName", "The specifed resource name is reserved.", -1}},
	{core.ErrKeyInvalid, apiError{400, "OutOfRangeInput", msgOutOfRange, -1}},
	{core.ErrKeyTooLarge, apiError{400, "OutOfRangeInput", msgOutOfRange, -1}},
	{core.ErrKeyMissing, apiError{400, "PropertiesNeedValue", "The values are not specified for all properties in the entity.", -1}},
	{core.ErrPropertyNameInvalid, apiError{400, "PropertyNameInvalid", "The property name is invalid.", -1}},
	{core.ErrPropertyNameTooLong, apiError{400, "PropertyNameTooLong", "The property name exceeds the maximum allowed length.", -1}},
	{core.ErrDuplicateProperty, apiError{400, "DuplicatePropertiesSpecified", "A property is specified more than one time.", -1}},
	{core.ErrTooManyProperties, apiError{400, "TooManyProperties", "The entity contains more properties than allowed.", -1}},
	{core.ErrEntityTooLarge, apiError{400, "EntityTooLarge", "The entity is larger than the maximum size permitted.", -1}},
	{core.ErrValueTooLarge, apiError{400, "PropertyValueTooLarge", "The property value exceeds the maximum allowed size (64KB).", -1}},
	{core.ErrValueOutOfRange, apiError{400, "OutOfRangeInput", msgOutOfRange, -1}},
	{core.ErrValueInvalid, apiError{400, "InvalidInput", msgInvalidInput, -1}},
	{core.ErrTypeUnknown, apiError{400, "InvalidInput", msgInvalidInput, -1}},
	{core.ErrStoreClosed, apiError{503, "ServerBusy", "The store is closed.", -1}},
	{core.ErrBatchEmpty, apiError{400, "InvalidInput", msgInvalidInput, -1}},
	{core.ErrBatchTooManyOperations, apiError{400, "InvalidInput", "The batch request operation exceeds the maximum 100 changes per change set.", -1}},
	{core.ErrBatchTooLarge, apiError{413, "RequestBodyTooLarge", "The request body is too large and exceeds the maximum permissible limit.", -1}},
	{core.ErrBatchPartitionMismatch, apiError{400, "CommandsInBatchActOnDifferentPartitions", "All commands in a batch must operate on same entity group.", -1}},
	{core.ErrBatchDuplicateRow, apiError{400, "InvalidDuplicateRow", "An entity can appear only once in a batch.", -1}},
	{query.ErrTopInvalid, apiError{400, "InvalidQueryParameterValue", "Value for one of the query parameters specified in the request URI is invalid.", -1}},
	{query.ErrFilterSyntax, apiError{400, "InvalidInput", msgInvalidInput, -1}},
	{query.ErrLiteralOutOfRange, apiError{400, "InvalidInput", msgInvalidInput, -1}},
	{query.ErrTooManyComparisons, apiError{400, "InvalidInput", msgInvalidInput, -1}},
	{query.ErrTokenInvalid, apiError{400, "InvalidInput", msgInvalidInput, -1}},
	{query.ErrSelectInvalid, apiError{400, "InvalidInput", msgInvalidInput, -1}},
	{wire.ErrJSONInvalid, apiError{400, "InvalidInput", msgInvalidInput, -1}},
	{wire.ErrNotObject, apiError{400, "InvalidInput", msgInvalidInput, -1}},
	{wire.ErrNestedValue, apiError{400, "InvalidInput", msgInvalidInput, -1}},
	{wire.ErrAnnotationInvalid, apiError{400, "InvalidInput", msgInvalidInput, -1}},
	{ErrActionInvalid, apiError{400, "InvalidInput", msgInvalidInput, -1}},
	{ErrStoreNotOpen, apiError{503, "ServerBusy", "The store is not open.", -1}},
}

// toAPIError chooses what the API reports for err. The message is the table's, followed
// by the engine's own description ("PartitionKey: key contains a character that is not
// allowed"), which says which rule broke. Errors the table does not know are
// InternalError, 500.
func toAPIError(err error) apiError {
	a := apiError{500, "InternalError", "The server encountered an internal error.", -1}
	var c Coded
	if errors.As(err, &c) {
		a.Code, a.Status = c.ErrorCode()
		a.Message = err.Error()
		return a
	}
	for _, e := range errorTable {
		if errors.Is(err, e.err) {
			a = e.api
			break
		}
	}
	var oe *core.OpError
	if errors.As(err, &oe) {
		a.Index = oe.Index
	}
	a.Message += "\n" + err.Error()
	return a
}
