package azerr

import (
	"errors"
	"fmt"
	"testing"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/model"
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
			{&model.FieldError{Field: "PartitionKey", Value: "a/b", Err: model.ErrKeyInvalid}, 400, "OutOfRangeInput", "The 'PartitionKey' parameter of value 'a/b' is out of range.", -1},
			{model.ErrKeyInvalid, 400, "OutOfRangeInput", "One of the request inputs is out of range.", -1},
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
			got := Of(*e.err)
			if got.Code == "" || got.Status < 400 || got.Status == 500 || got.Message == "" {
				t.Errorf("%v answers %+v", *e.err, got)
			}
		}
	})
}

func TestCode_Fill(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		for _, tc := range []struct{ msg, field, value, want string }{
			{"The '{field}' parameter of value '{value}' is out of range.", "PartitionKey", "a/b", "The 'PartitionKey' parameter of value 'a/b' is out of range."},
			{"{value}{field}{value}", "f", "v", "vfv"},
			{"filled once: {field} {value}", "{value}", "{field}", "filled once: {value} {field}"},
			{"a { b {fie {field", "x", "y", "a { b {fie {field"},
			{"{{field}}", "x", "y", "{x}"},
			{"no braces", "x", "y", "no braces"},
			{"{field}", "", "", ""},
		} {
			if got := (Code{Message: tc.msg}).Fill(tc.field, tc.value).Message; got != tc.want {
				t.Errorf("Fill(%q, %q) of %q = %q, want %q", tc.field, tc.value, tc.msg, got, tc.want)
			}
		}
	})
}
