package core

// ScanIndex calls fn with the keys of each entity of a table whose value of prop lies in
// r (see IndexEq, IndexAbove, IndexBelow), in the index's order: by value, then by
// (PartitionKey, RowKey). It stops when fn returns false. The keys share the store's
// memory and stay valid after the transaction. A table without an index on prop is
// ErrIndexNotFound.
func (tx *Tx) ScanIndex(table, prop string, r IndexRange, fn func(pk, rk string) bool) error {
	if _, err := tx.Table(table); err != nil {
		return err
	}
	if !tx.HasIndex(table, prop) {
		return ErrIndexNotFound
	}
	if r.From >= r.To {
		return nil
	}
	prefix := indexEntries(tableID(table), prop)
	to := prefix + r.To
	return tx.btx.AscendGreaterOrEqual("", prefix+r.From, func(k, _ string) bool {
		if k >= to {
			return false
		}
		return fn(splitIndexEntry(k))
	})
}

// GetRecord returns entity (pk, rk) of a table as stored, and whether it exists. It does
// not check that the table exists: callers have found it.
func (tx *Tx) GetRecord(table, pk, rk string) (Record, bool, error) {
	v, ok, err := tx.get(entityKey(tableID(table), pk, rk))
	if err != nil || !ok {
		return Record{}, false, err
	}
	return Record{PartitionKey: pk, RowKey: rk, data: v}, true, nil
}
