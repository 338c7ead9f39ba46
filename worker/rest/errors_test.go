package rest

import (
	"errors"
	"fmt"
	"testing"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/worker/rest/auth"
	"github.com/tabletopdb/tabletop/worker/rest/exchange"
)

func TestToAPIError(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		for _, tc := range []struct {
			err    error
			status int
			code   string
			msg    string
		}{
			{core.ErrEntityExists, 409, "EntityAlreadyExists", "The specified entity already exists."},
			{fmt.Errorf("apply: %w", core.ErrTableNotFound), 404, "TableNotFound", "The table specified does not exist."},
			{&core.OpError{Index: 3, Err: core.ErrPreconditionFailed}, 412, "UpdateConditionNotSatisfied", "The update condition specified in the request was not satisfied."},
			{&model.FieldError{Field: "PartitionKey", Value: "a/b", Err: model.ErrKeyInvalid}, 400, "OutOfRangeInput", "The 'PartitionKey' parameter of value 'a/b' is out of range."},
			{model.ErrKeyInvalid, 400, "OutOfRangeInput", "One of the request inputs is out of range."},
			{&model.FieldError{Field: "RowKey", Value: "r1", Err: core.ErrBatchDuplicateRow}, 400, "InvalidDuplicateRow", "A command with RowKey 'r1' is already present in the batch. An entity can appear only once in a batch."},
			{ErrBodyTooLarge, 413, "RequestBodyTooLarge", "The request body is too large and exceeds the maximum permissible limit."},
			{&auth.AuthError{Err: auth.ErrPermissionMismatch}, 403, "AuthorizationPermissionMismatch", "This request is not authorized to perform this operation using this permission."},
			{errors.New("something unexpected"), 500, "InternalError", "The server encountered an internal error. Please retry the request."},
		} {
			got := toAPIError(tc.err)
			if got.Status != tc.status || got.Code != tc.code || got.Message != tc.msg {
				t.Errorf("toAPIError(%v) = %+v", tc.err, got)
			}
		}
	})
}

func TestEffectiveMethod(t *testing.T) {
	for _, tc := range []struct {
		method string
		xm     []string
		want   string
		err    error
	}{
		{"PATCH", nil, "PATCH", nil},
		{"POST", []string{"MERGE"}, "MERGE", nil},
		{"POST", []string{"delete"}, "DELETE", nil},
		{"PUT", []string{"MERGE"}, "", ErrXMethodNotPost},
		{"POST", []string{"MERGE", "PUT"}, "", ErrXMethodCount},
		{"POST", []string{"GET"}, "", ErrXMethodValue},
	} {
		r := &exchange.Request{Method: tc.method, Header: exchange.Header{}}
		for _, v := range tc.xm {
			r.Header.Add("X-HTTP-Method", v)
		}
		got, err := effectiveMethod(r)
		if got != tc.want || !errors.Is(err, tc.err) {
			t.Errorf("%s %v: %q, %v; want %q, %v", tc.method, tc.xm, got, err, tc.want, tc.err)
		}
	}
}
