package rest

import (
	"errors"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/azerr"
)

// Errors the HTTP layer raises itself, each with the Azure code it is answered with.
var (
	// ErrAtomNotSupported means the request asked for, or sent, Atom XML.
	ErrAtomNotSupported = azerr.New(azerr.AtomFormatNotSupported, "atom format is not supported")
	// ErrBodyTooLarge means a request body is larger than the operation allows.
	ErrBodyTooLarge = azerr.New(azerr.RequestBodyTooLarge, "request body is too large")
	// ErrBodyTimeout means a request body did not arrive in time.
	ErrBodyTimeout = azerr.New(azerr.OperationTimedOut, "request body did not arrive in time")
	// ErrServerBusy means the memory for request bodies in flight is spent.
	ErrServerBusy = azerr.New(azerr.ServerBusy, "too many request bodies in flight")
	// ErrBodyInvalid means a request body could not be read as the operation's format.
	ErrBodyInvalid = azerr.New(azerr.InvalidInput, "request body is malformed")
	// ErrMethodNotAllowed means the resource does not support the request's method.
	ErrMethodNotAllowed = azerr.New(azerr.MethodNotAllowed, "method is not allowed on the resource")
	// ErrXMethodNotPost means X-HTTP-Method came with a method other than POST.
	ErrXMethodNotPost = azerr.New(azerr.XMethodNotUsingPost, "X-HTTP-Method used without POST")
	// ErrXMethodCount means X-HTTP-Method was given more than once.
	ErrXMethodCount = azerr.New(azerr.XMethodIncorrectCount, "X-HTTP-Method given more than once")
	// ErrXMethodValue means X-HTTP-Method names a method that cannot be tunnelled.
	ErrXMethodValue = azerr.New(azerr.XMethodIncorrectValue, "X-HTTP-Method value is invalid")
	// ErrIfMatchMissing means a Delete Entity came without If-Match.
	ErrIfMatchMissing = azerr.New(azerr.MissingRequiredHeader, "If-Match header is required")
	// ErrHeaderMissing means a header the operation requires is missing, such as Origin
	// on a preflight request.
	ErrHeaderMissing = azerr.New(azerr.MissingRequiredHeader, "required header is missing")
	// ErrQueryParamInvalid means a query parameter has a value the operation cannot use.
	ErrQueryParamInvalid = azerr.New(azerr.InvalidQueryParameterValue, "query parameter value is invalid")
	// ErrStatsOnPrimary means Get Table Service Stats reached the primary location: Azure
	// serves it only on the secondary ({account}-secondary).
	ErrStatsOnPrimary = azerr.New(azerr.InvalidQueryParameterValue, "comp=stats is served only on the secondary location ({account}-secondary)")
	// ErrPreflightFailed means no CORS rule allows a preflight request.
	ErrPreflightFailed = azerr.New(azerr.CorsPreflightFailure, "cors preflight failed")
	// ErrJSONNotSupported means an XML operation (ACL, service properties) was sent JSON.
	ErrJSONNotSupported = azerr.New(azerr.JsonFormatNotSupported, "json format is not supported")

	// ErrSecondaryReadOnly means a write was sent to an account's secondary location.
	ErrSecondaryReadOnly = azerr.New(azerr.AuthorizationFailure, "the secondary location serves reads only")
	// ErrVersionInvalid means x-ms-version names no service version Azure has published.
	ErrVersionInvalid = azerr.New(azerr.InvalidHeaderValue, "x-ms-version names no published service version")
	// ErrQueryMalformed means the query string has a malformed percent escape.
	ErrQueryMalformed = azerr.New(azerr.InvalidQueryParameterValue, "query string is malformed")

	errUnknownAccount = azerr.New(azerr.InvalidUri, "account is not served here")
	errBadURI         = azerr.New(azerr.InvalidUri, "request path names no resource")
	errTableGone      = azerr.New(azerr.ResourceNotFound, "table to delete does not exist") // Delete Table answers ResourceNotFound
	errBatchQuery     = azerr.New(azerr.InvalidInput, "the query of a batch must be a Get Entity")
	errBatchTables    = azerr.New(azerr.InvalidInput, "batch operations act on different tables")
)

// toAPIError chooses the answer for err (azerr.Of). Azure's generic InvalidInput message
// is followed by what exactly was wrong, such as the position of a $filter syntax error,
// so a user can fix the request.
func toAPIError(err error) azerr.Answer {
	a := azerr.Of(err)
	if a.Message == azerr.InvalidInput.Message {
		a.Message += " " + err.Error()
	}
	return a
}

// answerOf is toAPIError for an answer of this call; a key range a partial store lacked
// is told to the host (Options.NeedRange).
func (c *call) answerOf(err error) azerr.Answer {
	var need *core.NeedRangeError
	if c.h.needRange != nil && errors.As(err, &need) {
		c.h.needRange(need)
	}
	return toAPIError(err)
}
