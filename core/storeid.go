package core

import (
	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/core/stored"
)

// storeIDKey holds the store's identity, made by its first write transaction.
const storeIDKey = stored.MetaPrefix + "store-id"

// StoreID returns the store's identity: 16 random bytes made by the store's first write
// and kept with its data, so that a store started afresh (its data removed) is told apart
// from the one before it. It is the zero Guid until the first write.
func (tx *Tx) StoreID() (model.Guid, error) {
	var g model.Guid
	v, ok, err := tx.get(storeIDKey)
	if err != nil || !ok || len(v) != len(g) {
		return g, err
	}
	copy(g[:], v)
	return g, nil
}

// ensureStoreID gives the store its identity if it has none yet. Once a transaction has
// found it stored, later ones take that as known (nothing deletes it), saving each write
// a lookup; the transaction that made it may still roll back, so making it proves nothing.
func (tx *Tx) ensureStoreID() error {
	if tx.store.hasID {
		return nil
	}
	if _, ok, err := tx.get(storeIDKey); err != nil || ok {
		tx.store.hasID = ok
		return err
	}
	g := model.NewGuid()
	return tx.set(storeIDKey, string(g[:]))
}
