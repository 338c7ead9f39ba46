package main

import (
	"strings"

	"github.com/tabletopdb/tabletop/core/azerr"
)

// Errors the bindings raise themselves, each with the Azure code it is reported with.
var (
	// ErrStoreNotOpen means a call named a store handle that is not open.
	ErrStoreNotOpen = azerr.New(azerr.ServerBusy, "store is not open")
	// ErrActionInvalid means a transaction action or an update mode is not one the API knows.
	ErrActionInvalid = azerr.New(azerr.InvalidInput, "action or update mode is invalid")
	// ErrOperationUnknown means a request named an operation the engine does not have.
	ErrOperationUnknown = azerr.New(azerr.InvalidInput, "operation is unknown")
	// ErrPolicyInvalid means a stored access policy has no id or one over 64 characters.
	ErrPolicyInvalid = azerr.New(azerr.InvalidInput, "access policy id must be 1 to 64 characters")
	// ErrDumpHeaderMissing means a dump line holds an entity before any table header.
	ErrDumpHeaderMissing = azerr.New(azerr.InvalidInput, "dump has an entity before its table header")
	// ErrDumpVersion means a dump header names a format version this engine cannot read.
	ErrDumpVersion = azerr.New(azerr.InvalidInput, "dump version is not supported (at most 1)")
	// ErrSizeInvalid means a snapshot size handed to the engine is not a non-negative integer.
	ErrSizeInvalid = azerr.New(azerr.InvalidInput, "snapshot size is invalid")
	// ErrRangeInvalid means loadRange or saveRange was called without a key range.
	ErrRangeInvalid = azerr.New(azerr.InvalidInput, "key range is missing")
	// ErrDumpHeaderInvalid means a dump header line is not a valid header.
	ErrDumpHeaderInvalid = azerr.New(azerr.InvalidInput, "dump header is invalid")
)

// toAPIError chooses what the API reports for err: the code, status and message of the
// Azure error vocabulary (azerr.Of), the same as the server's, followed by the engine's
// own description ("PartitionKey: key contains a character that is not allowed"), which
// says which rule broke.
func toAPIError(err error) azerr.Answer {
	a := azerr.Of(err)
	if reason := err.Error(); !strings.Contains(a.Message, reason) {
		a.Message += "\n" + reason
	}
	return a
}
