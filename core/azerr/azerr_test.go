package azerr

import (
	"errors"
	"fmt"
	"testing"

	"github.com/tabletopdb/tabletop/core"
)

func TestOf(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		sentinel := New(MethodNotAllowed, "method is not allowed")
		for _, tc := range []struct {
			err    error
			status int
			code   string
			msg    string
			index  int
		}{
			{core.ErrEntityExists, 409, "EntityAlreadyExists", "The specified entity already exists.", -1},
			{fmt.Errorf("apply: %w", core.ErrTableNotFound), 404, "TableNotFound", "The table specified does not exist.", -1},
			{&core.OpError{Index: 3, Err: core.ErrPreconditionFailed}, 412, "UpdateConditionNotSatisfied", "The update condition specified in the request was not satisfied.", 3},
			{&core.FieldError{Field: "PartitionKey", Value: "a/b", Err: core.ErrKeyInvalid}, 400, "OutOfRangeInput", "The 'PartitionKey' parameter of value 'a/b' is out of range.", -1},
			{core.ErrKeyInvalid, 400, "OutOfRangeInput", "One of the request inputs is out of range.", -1},
			{&core.OpError{Index: 1, Err: fmt.Errorf("parse: %w", sentinel)}, 405, "MethodNotAllowed", "The requested method is not allowed on the specified resource.", 1},
			{errors.New("something unexpected"), 500, "InternalError", "The server encountered an internal error. Please retry the request.", -1},
		} {
			got := Of(tc.err)
			if got.Status != tc.status || got.Code != tc.code || got.Message != tc.msg || got.Index != tc.index {
				t.Errorf("Of(%v) = %+v", tc.err, got)
			}
		}
	})
	t.Run("EveryEngineError", func(t *testing.T) {
		for _, e := range engineCodes {
			got := Of(e.err)
			if got.Code == "" || got.Status < 400 || got.Status == 500 || got.Message == "" {
				t.Errorf("%v answers %+v", e.err, got)
			}
		}
	})
}
