package core

import "github.com/tabletopdb/tabletop/core/model"

// ValidateBatch checks the rules of an entity group transaction that do not depend on
// stored data: 1 to 100 operations, one PartitionKey throughout, each entity at most once.
// A failure is an *OpError naming the first operation that breaks a rule.
func ValidateBatch(ops []Op) error {
	if len(ops) == 0 {
		return ErrBatchEmpty
	}
	if len(ops) > model.MaxBatchOperations {
		return ErrBatchTooManyOperations
	}
	seen := make(map[string]struct{}, len(ops))
	for i, op := range ops {
		if op.Entity == nil {
			return &OpError{Index: i, Err: model.ErrKeyMissing}
		}
		if op.Entity.PartitionKey != ops[0].Entity.PartitionKey {
			return &OpError{Index: i, Err: ErrBatchPartitionMismatch}
		}
		if _, dup := seen[op.Entity.RowKey]; dup {
			return &OpError{Index: i, Err: ErrBatchDuplicateRow}
		}
		seen[op.Entity.RowKey] = struct{}{}
	}
	return nil
}

// ApplyBatch performs an entity group transaction on a table: every operation or none.
// It returns the stored entities (nil for deletes) in operation order; a failure is an
// *OpError with the 0-based index of the failing operation, and nothing is applied.
func (s *Store) ApplyBatch(table string, ops []Op) ([]*model.Entity, error) {
	if err := ValidateBatch(ops); err != nil {
		return nil, err
	}
	out := make([]*model.Entity, len(ops))
	err := s.Update(func(tx *Tx) error {
		id, err := tx.useTable(table)
		if err != nil {
			return err
		}
		for i, op := range ops {
			e, err := tx.apply(id, op)
			if err != nil {
				return &OpError{Index: i, Err: err}
			}
			out[i] = e
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
