package query

import "github.com/tabletopdb/tabletop/core/model"

// KeysOnly reports whether the filter compares only PartitionKey and RowKey (the nil
// filter does), so that whether it matches an entity depends on the keys alone and can be
// decided for a deleted entity from its keys.
func (f *Filter) KeysOnly() bool { return f == nil || keysOnly(f.root) }

func keysOnly(n node) bool {
	switch n := n.(type) {
	case *logicNode:
		return keysOnly(n.l) && keysOnly(n.r)
	case *notNode:
		return keysOnly(n.x)
	case *cmpNode:
		return n.prop == model.PartitionKeyName || n.prop == model.RowKeyName
	}
	return n == nil
}
