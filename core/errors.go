package core

import (
	"errors"
	"strconv"
)

// Errors of the store.
var (
	// ErrTableExists means a table of that name (compared case-insensitively) exists.
	ErrTableExists = errors.New("table already exists")
	// ErrTableNotFound means the table named by an entity operation does not exist.
	ErrTableNotFound = errors.New("table does not exist")
	// ErrEntityExists means an insert found an entity with the same keys.
	ErrEntityExists = errors.New("entity already exists")
	// ErrEntityNotFound means no entity has the given keys.
	ErrEntityNotFound = errors.New("entity does not exist")
	// ErrPreconditionFailed means an ETag precondition did not match the stored entity.
	ErrPreconditionFailed = errors.New("update condition not satisfied")
	// ErrTooManyPolicies means a table was given more than five stored access policies.
	ErrTooManyPolicies = errors.New("table has more than 5 stored access policies")
	// ErrStoreClosed means the store was closed.
	ErrStoreClosed = errors.New("store is closed")
	// ErrTxReadOnly means a write was attempted in a read-only transaction.
	ErrTxReadOnly = errors.New("transaction is read-only")
	// ErrNoSpace means the backend had no disk space left for a change set: the write
	// was not applied, and writes succeed again once space is freed.
	ErrNoSpace = errors.New("no disk space left for the write")
)

// Errors of entity group transactions.
var (
	// ErrBatchEmpty means a batch holds no operations.
	ErrBatchEmpty = errors.New("batch holds no operations")
	// ErrBatchTooManyOperations means a batch holds more than 100 operations.
	ErrBatchTooManyOperations = errors.New("batch holds more than 100 operations")
	// ErrBatchPartitionMismatch means a batch's operations name different PartitionKeys.
	ErrBatchPartitionMismatch = errors.New("batch operations act on different partitions")
	// ErrBatchDuplicateRow means a batch names one entity twice.
	ErrBatchDuplicateRow = errors.New("entity appears more than once in the batch")
)

// OpError reports which operation of an entity group transaction failed.
type OpError struct {
	Index int   // 0-based index of the failing operation
	Err   error // why it failed
}

// Error implements error.
func (e *OpError) Error() string { return "operation " + strconv.Itoa(e.Index) + ": " + e.Err.Error() }

// Unwrap returns the cause, so errors.Is sees through an OpError.
func (e *OpError) Unwrap() error { return e.Err }
