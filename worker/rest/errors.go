package rest

import (
	"errors"
	"net/http"
	"strings"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/query"
	"github.com/tabletopdb/tabletop/core/wire"
	"github.com/tabletopdb/tabletop/worker/rest/auth"
	"github.com/tabletopdb/tabletop/worker/rest/batch"
	"github.com/tabletopdb/tabletop/worker/rest/xmldoc"
)

// Errors the HTTP layer raises itself. Like the core's, they are answered through errorTable.
var (
	// ErrAtomNotSupported means the request asked for, or sent, Atom XML.
	ErrAtomNotSupported = errors.New("atom format is not supported")
	// ErrBodyTooLarge means a request body is larger than the operation allows.
	ErrBodyTooLarge = errors.New("request body is too large")
	// ErrBodyInvalid means a request body could not be read as the operation's format.
	ErrBodyInvalid = errors.New("request body is malformed")
	// ErrMethodNotAllowed means the resource does not support the request's method.
	ErrMethodNotAllowed = errors.New("method is not allowed on the resource")
	// ErrXMethodNotPost means X-HTTP-Method came with a method other than POST.
	ErrXMethodNotPost = errors.New("X-HTTP-Method used without POST")
	// ErrXMethodCount means X-HTTP-Method was given more than once.
	ErrXMethodCount = errors.New("X-HTTP-Method given more than once")
	// ErrXMethodValue means X-HTTP-Method names a method that cannot be tunnelled.
	ErrXMethodValue = errors.New("X-HTTP-Method value is invalid")
	// ErrIfMatchMissing means a Delete Entity came without If-Match.
	ErrIfMatchMissing = errors.New("If-Match header is required")
	// ErrHeaderMissing means a header the operation requires is missing, such as Origin
	// on a preflight request.
	ErrHeaderMissing = errors.New("required header is missing")
	// ErrQueryParamInvalid means a query parameter has a value the operation cannot use.
	ErrQueryParamInvalid = errors.New("query parameter value is invalid")
	// ErrPreflightFailed means no CORS rule allows a preflight request.
	ErrPreflightFailed = errors.New("cors preflight failed")
	// ErrJSONNotSupported means an XML operation (ACL, service properties) was sent JSON.
	ErrJSONNotSupported = errors.New("json format is not supported")

	errUnknownAccount = errors.New("account is not served here")
	errTableGone      = errors.New("table to delete does not exist") // Delete Table answers ResourceNotFound
)

// apiError is an error as the service answers it: HTTP status, code and message.
type apiError struct {
	Status  int
	Code    string
	Message string // may hold {field} and {value}, filled from a *core.FieldError
}

// errorTable maps errors to the answer the service gives, tested in order with errors.Is.
// It is the only place where HTTP statuses and Azure error codes are chosen for errors.
var errorTable = []struct {
	err error
	api apiError
}{
	// Tables and entities (core).
	{core.ErrTableExists, apiError{409, "TableAlreadyExists", "The table specified already exists."}},
	{core.ErrTableNotFound, apiError{404, "TableNotFound", "The table specified does not exist."}},
	{core.ErrEntityExists, apiError{409, "EntityAlreadyExists", "The specified entity already exists."}},
	{core.ErrEntityNotFound, apiError{404, "ResourceNotFound", "The specified resource does not exist."}},
	{core.ErrPreconditionFailed, apiError{412, "UpdateConditionNotSatisfied", "The update condition specified in the request was not satisfied."}},
	{core.ErrETagInvalid, apiError{400, "InvalidInput", "One of the request inputs is not valid."}},
	{core.ErrTableNameInvalid, apiError{400, "InvalidResourceName", "The specifed resource name contains invalid characters."}},
	{core.ErrTableNameReserved, apiError{400, "InvalidResourceName", "The specifed resource name is reserved."}},
	{core.ErrKeyInvalid, apiError{400, "OutOfRangeInput", "The '{field}' parameter of value '{value}' is out of range."}},
	{core.ErrKeyTooLarge, apiError{400, "OutOfRangeInput", "The '{field}' parameter of value '{value}' is out of range."}},
	{core.ErrKeyMissing, apiError{400, "PropertiesNeedValue", "The values are not specified for all properties in the entity."}},
	{core.ErrPropertyNameInvalid, apiError{400, "PropertyNameInvalid", "The property name is invalid."}},
	{core.ErrPropertyNameTooLong, apiError{400, "PropertyNameTooLong", "The property name exceeds the maximum allowed length."}},
	{core.ErrDuplicateProperty, apiError{400, "DuplicatePropertiesSpecified", "A property is specified more than one time."}},
	{core.ErrTooManyProperties, apiError{400, "TooManyProperties", "The entity contains more properties than allowed. Each entity can include up to 252 properties to store data. Each entity also has 3 system properties."}},
	{core.ErrEntityTooLarge, apiError{400, "EntityTooLarge", "The entity is larger than the maximum size permitted."}},
	{core.ErrValueTooLarge, apiError{400, "PropertyValueTooLarge", "The property value exceeds the maximum allowed size (64KB). If the property value is a string, it is UTF-16 encoded and the maximum number of characters should be 32K or less."}},
	{core.ErrValueOutOfRange, apiError{400, "OutOfRangeInput", "One of the request inputs is out of range."}},
	{core.ErrValueInvalid, apiError{400, "InvalidInput", "One of the request inputs is not valid."}},
	{core.ErrTypeUnknown, apiError{400, "InvalidInput", "One of the request inputs is not valid."}},
	{core.ErrTooManyPolicies, apiError{400, "InvalidXmlDocument", "XML specified is not syntactically valid."}},
	{core.ErrStoreClosed, apiError{503, "ServerBusy", "The server is currently unable to receive requests. Please retry your request."}},

	// Entity group transactions (core).
	{core.ErrBatchEmpty, apiError{400, "InvalidInput", "One of the request inputs is not valid."}},
	{core.ErrBatchTooManyOperations, apiError{400, "InvalidInput", "The batch request operation exceeds the maximum 100 changes per change set."}},
	{core.ErrBatchTooLarge, apiError{413, "RequestBodyTooLarge", "The request body is too large and exceeds the maximum permissible limit."}},
	{core.ErrBatchPartitionMismatch, apiError{400, "CommandsInBatchActOnDifferentPartitions", "All commands in a batch must operate on same entity group."}},
	{core.ErrBatchDuplicateRow, apiError{400, "InvalidDuplicateRow", "A command with RowKey '{value}' is already present in the batch. An entity can appear only once in a batch."}},

	// Batch requests (worker/batch).
	{batch.ErrTooLarge, apiError{413, "RequestBodyTooLarge", "The request body is too large and exceeds the maximum permissible limit."}},
	{batch.ErrTooManyOperations, apiError{400, "InvalidInput", batch.OperationCountMessage}},
	{batch.ErrEmpty, apiError{400, "InvalidInput", batch.OperationCountMessage}},
	{batch.ErrMalformed, apiError{400, "InvalidInput", "One of the request inputs is not valid."}},
	{batch.ErrMultipleChangesets, apiError{400, "InvalidInput", "One of the request inputs is not valid."}},
	{batch.ErrMethod, apiError{400, "InvalidInput", "One of the request inputs is not valid."}},
	{errBatchTables, apiError{400, "InvalidInput", "One of the request inputs is not valid."}},

	// XML documents (worker/service).
	{xmldoc.ErrXMLInvalid, apiError{400, "InvalidXmlDocument", "XML specified is not syntactically valid."}},

	// Queries (core/query).
	{query.ErrTopInvalid, apiError{400, "InvalidQueryParameterValue", "Value for one of the query parameters specified in the request URI is invalid."}},
	{query.ErrFilterSyntax, apiError{400, "InvalidInput", "One of the request inputs is not valid."}},
	{query.ErrLiteralOutOfRange, apiError{400, "InvalidInput", "One of the request inputs is not valid."}},
	{query.ErrTooManyComparisons, apiError{400, "InvalidInput", "One of the request inputs is not valid."}},
	{query.ErrTokenInvalid, apiError{400, "InvalidInput", "One of the request inputs is not valid."}},
	{query.ErrSelectInvalid, apiError{400, "InvalidInput", "One of the request inputs is not valid."}},

	// Request bodies (core/wire).
	{wire.ErrJSONInvalid, apiError{400, "InvalidInput", "One of the request inputs is not valid."}},
	{wire.ErrNotObject, apiError{400, "InvalidInput", "One of the request inputs is not valid."}},
	{wire.ErrNestedValue, apiError{400, "InvalidInput", "One of the request inputs is not valid."}},
	{wire.ErrAnnotationInvalid, apiError{400, "InvalidInput", "One of the request inputs is not valid."}},
	{wire.ErrTableNameMissing, apiError{400, "InvalidInput", "One of the request inputs is not valid."}},

	// The HTTP layer.
	{ErrAtomNotSupported, apiError{415, "AtomFormatNotSupported", "Atom format is not supported."}},
	{ErrBodyTooLarge, apiError{413, "RequestBodyTooLarge", "The request body is too large and exceeds the maximum permissible limit."}},
	{ErrBodyInvalid, apiError{400, "InvalidInput", "One of the request inputs is not valid."}},
	{ErrMethodNotAllowed, apiError{405, "MethodNotAllowed", "The requested method is not allowed on the specified resource."}},
	{ErrXMethodNotPost, apiError{400, "XMethodNotUsingPost", "The request uses X-HTTP-Method with an HTTP verb different than POST."}},
	{ErrXMethodCount, apiError{400, "XMethodIncorrectCount", "More than one X-HTTP-Method is specified."}},
	{ErrXMethodValue, apiError{400, "XMethodIncorrectValue", "The specified X-HTTP-Method is invalid."}},
	{ErrIfMatchMissing, apiError{400, "MissingRequiredHeader", "An HTTP header that's mandatory for this request is not specified."}},
	{ErrHeaderMissing, apiError{400, "MissingRequiredHeader", "An HTTP header that's mandatory for this request is not specified."}},
	{ErrQueryParamInvalid, apiError{400, "InvalidQueryParameterValue", "Value for one of the query parameters specified in the request URI is invalid."}},
	{ErrPreflightFailed, apiError{403, "CorsPreflightFailure", "CORS not enabled or no matching rule found for this request."}},
	{ErrJSONNotSupported, apiError{415, "JsonFormatNotSupported", "JSON format is not supported."}},
	{errTableGone, apiError{404, "ResourceNotFound", "The specified resource does not exist."}},
	{errUnknownAccount, apiError{400, "InvalidUri", "The requested URI does not represent any resource on the server."}},
	{errBadURI, apiError{400, "InvalidUri", "The requested URI does not represent any resource on the server."}},
}

// errInternal is the answer to an error the table does not know.
var errInternal = apiError{500, "InternalError", "The server encountered an internal error. Please retry the request."}

// toAPIError chooses the answer for err: auth errors carry their own code, everything else
// goes through errorTable.
func toAPIError(err error) apiError {
	var ae *auth.AuthError
	if errors.As(err, &ae) {
		return apiError{Status: http.StatusForbidden, Code: ae.Code(), Message: ae.Message()}
	}
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		err = ErrBodyTooLarge
	}
	for _, e := range errorTable {
		if errors.Is(err, e.err) {
			return explain(fill(e.api, err), err)
		}
	}
	return errInternal
}

// explain adds what exactly was wrong to Azure's generic InvalidInput message, such as
// the position of a $filter syntax error, so a user can fix the request.
func explain(a apiError, err error) apiError {
	if a.Code == "InvalidInput" && a.Message == "One of the request inputs is not valid." {
		a.Message += " " + err.Error()
	}
	return a
}

// fill puts the field and value of a *core.FieldError into the message template.
func fill(a apiError, err error) apiError {
	if !strings.Contains(a.Message, "{") {
		return a
	}
	var fe *core.FieldError
	if !errors.As(err, &fe) {
		fe = &core.FieldError{}
	}
	if a.Code == "OutOfRangeInput" && fe.Field == "" {
		a.Message = "One of the request inputs is out of range."
		return a
	}
	a.Message = strings.NewReplacer("{field}", fe.Field, "{value}", fe.Value).Replace(a.Message)
	return a
}
