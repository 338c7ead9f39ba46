package core_test

import (
	"errors"
	"testing"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/model"
)

// Entity group transactions (Azure's "Performing entity group transactions"): at most 100 operations, one PartitionKey, each
// entity at most once, all or nothing, and a failure names the failing operation's index.

func batchOps(n int, pk string) []core.Op {
	ops := make([]core.Op, n)
	for i := range ops {
		ops[i] = core.Op{Kind: core.OpInsert, Entity: &model.Entity{PartitionKey: pk, RowKey: itoa(i)}}
	}
	return ops
}

// wantOpError fails the test unless err is an *OpError at index with cause want.
func wantOpError(t testing.TB, err error, index int, want error) {
	t.Helper()
	var oe *core.OpError
	if !errors.As(err, &oe) || oe.Index != index || !errors.Is(err, want) {
		t.Fatalf("err = %v, want *OpError{Index: %d, Err: %v}", err, index, want)
	}
}

func TestRule_Batch_100Operations(t *testing.T) {
	s := newRuleStore(t, core.Options{}, "Batch")
	t.Run("OK/100", func(t *testing.T) {
		ops := batchOps(model.MaxBatchOperations, "p")
		wantErr(t, core.ValidateBatch(ops), nil)
		out, err := s.ApplyBatch("Batch", ops)
		if err != nil || len(out) != 100 {
			t.Fatalf("ApplyBatch: %v (%d results)", err, len(out))
		}
		if n := len(scanAll(t, s, "Batch")); n != 100 {
			t.Fatalf("%d entities stored", n)
		}
	})
	t.Run("ErrBatchTooManyOperations/101", func(t *testing.T) {
		ops := batchOps(model.MaxBatchOperations+1, "q")
		wantErr(t, core.ValidateBatch(ops), core.ErrBatchTooManyOperations)
		_, err := s.ApplyBatch("Batch", ops)
		wantErr(t, err, core.ErrBatchTooManyOperations)
	})
	t.Run("ErrBatchEmpty", func(t *testing.T) {
		wantErr(t, core.ValidateBatch(nil), core.ErrBatchEmpty)
		_, err := s.ApplyBatch("Batch", nil)
		wantErr(t, err, core.ErrBatchEmpty)
	})
}

func TestRule_Batch_OnePartition(t *testing.T) {
	for _, at := range []int{1, 50, 99} {
		t.Run("ErrBatchPartitionMismatch/"+itoa(at), func(t *testing.T) {
			s := newRuleStore(t, core.Options{}, "Batch")
			ops := batchOps(100, "p")
			ops[at].Entity.PartitionKey = "P" // keys are case-sensitive
			wantOpError(t, core.ValidateBatch(ops), at, core.ErrBatchPartitionMismatch)
			_, err := s.ApplyBatch("Batch", ops)
			wantOpError(t, err, at, core.ErrBatchPartitionMismatch)
			if n := len(scanAll(t, s, "Batch")); n != 0 {
				t.Fatalf("%d entities applied, want 0", n)
			}
		})
	}
}

func TestRule_Batch_OneOperationPerEntity(t *testing.T) {
	s := newRuleStore(t, core.Options{}, "Batch")
	ops := batchOps(5, "p")
	ops[3] = core.Op{Kind: core.OpDelete, Entity: &model.Entity{PartitionKey: "p", RowKey: "1"}}
	wantOpError(t, core.ValidateBatch(ops), 3, core.ErrBatchDuplicateRow)
	_, err := s.ApplyBatch("Batch", ops)
	wantOpError(t, err, 3, core.ErrBatchDuplicateRow)
	// RowKeys differing only in case are different entities.
	ok := []core.Op{
		{Kind: core.OpInsert, Entity: &model.Entity{PartitionKey: "p", RowKey: "r"}},
		{Kind: core.OpInsert, Entity: &model.Entity{PartitionKey: "p", RowKey: "R"}},
	}
	wantErr(t, core.ValidateBatch(ok), nil)
}

func TestRule_Batch_AllOrNothingAtFailingIndex(t *testing.T) {
	bad := map[string]struct {
		op   core.Op
		want error
	}{
		"ErrEntityExists":      {core.Op{Kind: core.OpInsert, Entity: &model.Entity{PartitionKey: "p", RowKey: "existing"}}, core.ErrEntityExists},
		"ErrEntityNotFound":    {core.Op{Kind: core.OpReplace, Entity: &model.Entity{PartitionKey: "p", RowKey: "missing"}}, core.ErrEntityNotFound},
		"ErrKeyInvalid":        {core.Op{Kind: core.OpInsert, Entity: &model.Entity{PartitionKey: "p", RowKey: "a#b"}}, model.ErrKeyInvalid},
		"ErrTooManyProperties": {core.Op{Kind: core.OpInsert, Entity: &model.Entity{PartitionKey: "p", RowKey: "x", Properties: props(253)}}, model.ErrTooManyProperties},
		"ErrPreconditionFailed": {core.Op{Kind: core.OpDelete, Entity: &model.Entity{PartitionKey: "p", RowKey: "existing"},
			IfMatch: model.ETagOf(model.MinDateTime)}, core.ErrPreconditionFailed},
	}
	for name, c := range bad {
		for _, at := range []int{0, 7, 99} {
			t.Run(name+"/"+itoa(at), func(t *testing.T) {
				s := newRuleStore(t, core.Options{}, "Batch")
				before := insert(t, s, "Batch", &model.Entity{PartitionKey: "p", RowKey: "existing"})
				ops := batchOps(100, "p")
				ops[at] = c.op
				_, err := s.ApplyBatch("Batch", ops)
				wantOpError(t, err, at, c.want)
				got := scanAll(t, s, "Batch")
				if len(got) != 1 || !sameEntity(got[0], before) {
					t.Fatalf("after a failed batch the table holds %d entities, want only the one before", len(got))
				}
			})
		}
	}
}

func TestRule_Batch_TableMustExist(t *testing.T) {
	s := newRuleStore(t, core.Options{})
	_, err := s.ApplyBatch("Nowhere", batchOps(1, "p"))
	wantErr(t, err, core.ErrTableNotFound)
}
