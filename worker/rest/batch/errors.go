package batch

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/tabletopdb/tabletop/core/azerr"
)

// Errors of ReadRequest, each with the Azure code it is answered with.
var (
	// ErrMalformed means the body or its Content-Type does not follow the batch framing.
	// Errors wrapping it say what is wrong.
	ErrMalformed = azerr.New(azerr.InvalidInput, "malformed batch request")
	// ErrTooLarge means the request body is larger than model.MaxBatchBytes (4 MiB).
	ErrTooLarge = azerr.New(azerr.RequestBodyTooLarge, "batch request body is larger than 4 MiB")
	// ErrTooManyOperations means the changeset holds more than model.MaxBatchOperations (100)
	// operations.
	ErrTooManyOperations = azerr.New(azerr.TooManyOperations, "changeset holds more than 100 operations")
	// ErrEmpty means the batch holds no changeset or the changeset no operation. WriteResponse
	// also returns it for an empty list of responses.
	ErrEmpty = azerr.New(azerr.TooManyOperations, "batch holds no operation")
	// ErrMultipleChangesets means the batch holds another part beside its changeset.
	ErrMultipleChangesets = azerr.New(azerr.InvalidInput, "batch holds more than one changeset")
	// ErrMethod means an operation's verb is not POST, PUT, PATCH, MERGE or DELETE; a GET
	// (query) is not allowed inside a changeset, and a write not outside one.
	ErrMethod = azerr.New(azerr.InvalidInput, "operation method is not allowed in a changeset")
	// ErrQueryNotAlone means a batch holds a query and another part: Azure takes a query
	// only alone in its batch.
	ErrQueryNotAlone = azerr.New(azerr.InvalidInput, "a query must be alone in its batch")
)

// ErrStatus means a Response's Status is not a three-digit HTTP status code.
var ErrStatus = errors.New("response status is not a three-digit HTTP status")

// OperationError is an error in the operation at Index (0-based) of the changeset. It
// wraps one of the sentinel errors.
type OperationError struct {
	Index int
	Err   error
}

// Error implements error.
func (e *OperationError) Error() string {
	return "operation " + strconv.Itoa(e.Index) + ": " + e.Err.Error()
}

// Unwrap returns the underlying error.
func (e *OperationError) Unwrap() error { return e.Err }

// malformed returns an ErrMalformed that says what is wrong.
func malformed(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrMalformed, fmt.Sprintf(format, args...))
}
