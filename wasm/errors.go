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
