//go:build !js

package rest_test

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"
)

func action(kind aztables.TransactionType, pk, rk string, p map[string]any) aztables.TransactionAction {
	return aztables.TransactionAction{ActionType: kind, Entity: props(pk, rk, p)}
}

func TestSDK_SubmitTransaction(t *testing.T) {
	e := newEnv(t)
	c := e.table(t, "Batch")
	for _, rk := range []string{"upd", "mrg", "del"} {
		if _, err := c.AddEntity(ctx, props("p", rk, map[string]any{"Old": "x"}), nil); err != nil {
			t.Fatal(err)
		}
	}
	t.Run("OK", func(t *testing.T) {
		_, err := c.SubmitTransaction(ctx, []aztables.TransactionAction{
			action(aztables.TransactionTypeAdd, "p", "new", map[string]any{"A": "a"}),
			action(aztables.TransactionTypeUpdateReplace, "p", "upd", map[string]any{"A": "u"}),
			action(aztables.TransactionTypeUpdateMerge, "p", "mrg", map[string]any{"A": "m"}),
			action(aztables.TransactionTypeInsertReplace, "p", "ir", map[string]any{"A": "ir"}),
			action(aztables.TransactionTypeInsertMerge, "p", "im", map[string]any{"A": "im"}),
			action(aztables.TransactionTypeDelete, "p", "del", nil),
		}, nil)
		if err != nil {
			t.Fatal(err)
		}
		for rk, want := range map[string]string{"new": "a", "upd": "u", "mrg": "m", "ir": "ir", "im": "im"} {
			if got, _ := get(t, c, "p", rk); got.Properties["A"] != want {
				t.Errorf("%s: A = %v, want %s", rk, got.Properties["A"], want)
			}
		}
		if got, _ := get(t, c, "p", "mrg"); got.Properties["Old"] != "x" {
			t.Errorf("merge lost Old: %v", got.Properties)
		}
		if got, _ := get(t, c, "p", "upd"); got.Properties["Old"] != nil {
			t.Errorf("replace kept Old: %v", got.Properties)
		}
		if _, err := c.GetEntity(ctx, "p", "del", nil); err == nil {
			t.Error("deleted entity still there")
		}
	})
	t.Run("ErrEntityExists", func(t *testing.T) {
		before := countEntities(t, c)
		_, err := c.SubmitTransaction(ctx, []aztables.TransactionAction{
			action(aztables.TransactionTypeAdd, "p", "x1", nil),
			action(aztables.TransactionTypeUpdateMerge, "p", "upd", map[string]any{"Z": "z"}),
			action(aztables.TransactionTypeAdd, "p", "new", nil), // exists: index 2 fails
			action(aztables.TransactionTypeAdd, "p", "x3", nil),
		}, nil)
		wantBatchError(t, err, "EntityAlreadyExists", "2:The specified entity already exists.")
		if after := countEntities(t, c); after != before {
			t.Fatalf("%d entities before, %d after a failed batch", before, after)
		}
		if got, _ := get(t, c, "p", "upd"); got.Properties["Z"] != nil {
			t.Fatal("failed batch applied a merge")
		}
	})
	t.Run("ErrEntityNotFound", func(t *testing.T) {
		_, err := c.SubmitTransaction(ctx, []aztables.TransactionAction{
			action(aztables.TransactionTypeAdd, "p", "y0", nil),
			action(aztables.TransactionTypeDelete, "p", "nothing", nil),
		}, nil)
		wantBatchError(t, err, "ResourceNotFound", "1:The specified resource does not exist.")
	})
	t.Run("ErrBatchDuplicateRow", func(t *testing.T) {
		_, err := c.SubmitTransaction(ctx, []aztables.TransactionAction{
			action(aztables.TransactionTypeAdd, "p", "d1", nil),
			action(aztables.TransactionTypeInsertMerge, "p", "d1", nil),
		}, nil)
		wantBatchError(t, err, "InvalidDuplicateRow", "1:A command with RowKey 'd1' is already present in the batch.")
	})
	t.Run("ErrBatchPartitionMismatch", func(t *testing.T) {
		_, err := c.SubmitTransaction(ctx, []aztables.TransactionAction{
			action(aztables.TransactionTypeAdd, "p", "e1", nil),
			action(aztables.TransactionTypeAdd, "q", "e2", nil),
		}, nil)
		wantBatchError(t, err, "CommandsInBatchActOnDifferentPartitions", "1:All commands in a batch must operate on same entity group.")
	})
	t.Run("ErrBatchTooManyOperations", func(t *testing.T) {
		var actions []aztables.TransactionAction
		for i := 0; i < 101; i++ {
			actions = append(actions, action(aztables.TransactionTypeAdd, "p", fmt.Sprint("m", i), nil))
		}
		_, err := c.SubmitTransaction(ctx, actions, nil)
		wantCode(t, err, http.StatusBadRequest, "InvalidInput")
	})
	t.Run("ErrTableNotFound", func(t *testing.T) {
		_, err := e.svc.NewClient("NoSuch").SubmitTransaction(ctx, []aztables.TransactionAction{
			action(aztables.TransactionTypeAdd, "p", "a", nil),
		}, nil)
		wantBatchError(t, err, "TableNotFound", "0:The table specified does not exist.")
	})
}

// wantBatchError checks a failed transaction's error: code and the start of the message.
func wantBatchError(t *testing.T, err error, code, msg string) {
	t.Helper()
	var re *azcore.ResponseError
	if !errors.As(err, &re) {
		t.Fatalf("err = %v, want a ResponseError", err)
	}
	if re.ErrorCode != code || !strings.Contains(err.Error(), `"value":"`+msg) {
		t.Fatalf("err code %q, want %q with message %q:\n%v", re.ErrorCode, code, msg, err)
	}
}

func countEntities(t *testing.T, c *aztables.Client) int {
	t.Helper()
	n := 0
	pager := c.NewListEntitiesPager(nil)
	for pager.More() {
		p, err := pager.NextPage(ctx)
		if err != nil {
			t.Fatal(err)
		}
		n += len(p.Entities)
	}
	return n
}
