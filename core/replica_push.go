package core

// Acknowledge records that the server accepted the push of key k, which was read from
// the outbox at local ETag localETag ("" for a deletion): the remote ETag becomes
// remoteETag ("" when the server no longer has the entity), and the outbox record is
// cleared if the local copy is still the version pushed. If the application changed it
// since, the record stays, and the next push is based on remoteETag.
func (tx *Tx) Acknowledge(table string, k Key, localETag, remoteETag string) error {
	if _, err := tx.Checkpoint(table); err != nil {
		return err
	}
	id := tableID(table)
	if err := tx.setRemote(id, k, remoteETag); err != nil {
		return err
	}
	current, err := tx.stored(entityKey(id, k.PartitionKey, k.RowKey), &Entity{PartitionKey: k.PartitionKey, RowKey: k.RowKey})
	if err != nil {
		return err
	}
	now := ""
	if current != nil {
		now = current.ETag()
	}
	if now != localETag {
		return nil
	}
	return tx.removeOutbox(id, k)
}

// Rebase keeps the local change of key k pending but bases it on the server's version
// remoteETag ("" when the server has none): how a resolver keeps the local version over
// the server's, which the next push then replaces with If-Match on remoteETag.
func (tx *Tx) Rebase(table string, k Key, remoteETag string) error {
	if _, err := tx.Checkpoint(table); err != nil {
		return err
	}
	id := tableID(table)
	if err := tx.setRemote(id, k, remoteETag); err != nil {
		return err
	}
	return tx.addOutbox(id, k.PartitionKey, k.RowKey)
}

// TakeRemote resolves a conflict on key k for the server: if the local copy is still at
// localETag ("" for deleted), it becomes the server's version e (nil: the server has
// none) with remoteETag, and the outbox record is cleared. It reports whether it did; a
// local copy changed since is left for the next push.
func (tx *Tx) TakeRemote(table string, k Key, localETag string, e *Entity, remoteETag string) (bool, error) {
	if _, err := tx.Checkpoint(table); err != nil {
		return false, err
	}
	id := tableID(table)
	p, err := tx.pending(id, k)
	if err != nil || p.LocalETag() != localETag {
		return false, err
	}
	return true, tx.takeRemote(id, k, e, remoteETag)
}

// SameAsLocal reports whether the local copy of key k holds exactly e's properties (nil:
// whether it is absent): how a client recognizes its own earlier push in a conflict.
func (tx *Tx) SameAsLocal(table string, k Key, e *Entity) (bool, error) {
	if _, err := tx.Table(table); err != nil {
		return false, err
	}
	local, err := tx.stored(entityKey(tableID(table), k.PartitionKey, k.RowKey), &Entity{PartitionKey: k.PartitionKey, RowKey: k.RowKey})
	if err != nil || local == nil || e == nil {
		return local == nil && e == nil, err
	}
	return sameProperties(local.Properties, e.Properties), nil
}

// sameProperties reports whether a and b hold the same names with the same typed values,
// in any order.
func sameProperties(a, b []Property) bool {
	if len(a) != len(b) {
		return false
	}
	byName := make(map[string]Value, len(a))
	for _, p := range a {
		byName[p.Name] = p.Value
	}
	for _, p := range b {
		if v, ok := byName[p.Name]; !ok || v != p.Value {
			return false
		}
	}
	return true
}

// setRemote sets or (etag "") clears the remote ETag of key k in table id.
func (tx *Tx) setRemote(id string, k Key, etag string) error {
	if etag == "" {
		return tx.delIfPresent(remoteKey(id, k.PartitionKey, k.RowKey))
	}
	return tx.set(remoteKey(id, k.PartitionKey, k.RowKey), etag)
}

// has reports whether key exists.
func (tx *Tx) has(key string) (bool, error) {
	_, ok, err := tx.get(key)
	return ok, err
}

// delIfPresent deletes key if it exists, logging nothing otherwise.
func (tx *Tx) delIfPresent(key string) error {
	if ok, err := tx.has(key); err != nil || !ok {
		return err
	}
	return tx.del(key)
}
