package core

// Pulled is one page of remote changes for Tx.ApplyPulled: the entities as the server
// holds them with their ETags, the keys it deleted, and the checkpoint to store with them.
type Pulled struct {
	Entities []RemoteEntity
	Deleted  []Key
	// Checkpoint replaces the table's checkpoint when SetCheckpoint is true.
	Checkpoint    string
	SetCheckpoint bool
	// OnlySynced restricts deletions to entities that have a remote ETag (a key
	// reconciliation deletes only what came from the server).
	OnlySynced bool
}

// RemoteEntity is an entity as a remote server holds it, with the server's ETag.
type RemoteEntity struct {
	Entity *Entity
	ETag   string
}

// Key names one entity of a table.
type Key struct {
	PartitionKey string
	RowKey       string
}

// Pending is an outbox item: a key changed locally and not pushed yet, with the base ETag
// (the server's ETag the change derives from, "" for none) and the local entity (nil when
// it was deleted).
type Pending struct {
	Key
	BaseETag string
	Entity   *Entity
}

// LocalETag is the ETag of the local version the item was read at, "" for a deletion.
func (p Pending) LocalETag() string {
	if p.Entity == nil {
		return ""
	}
	return p.Entity.ETag()
}

// Track marks a table as replicated: from now on every local write of it is queued in
// the outbox. Entities it already holds are queued too (they are new to the server).
// Tracking a tracked table changes nothing. The store must keep replicas (Options.Replicas).
func (tx *Tx) Track(table string) error {
	if !tx.store.opts.Replicas {
		return ErrNoReplicas
	}
	if _, err := tx.Table(table); err != nil {
		return err
	}
	id := tableID(table)
	if ok, err := tx.tracked(id); err != nil || ok {
		return err
	}
	var keys []Key
	err := tx.ScanRecords(table, WholeTable, func(r *Record) bool {
		keys = append(keys, Key{r.PartitionKey, r.RowKey})
		return true
	})
	if err != nil {
		return err
	}
	for _, k := range keys {
		if err := tx.set(outboxKey(id, k.PartitionKey, k.RowKey), ""); err != nil {
			return err
		}
	}
	if err := tx.setOutboxCount(id, len(keys)); err != nil {
		return err
	}
	return tx.set(trackKey(id), "")
}

// Untrack stops replicating a table and forgets its outbox, remote ETags and checkpoint.
func (tx *Tx) Untrack(table string) error {
	return tx.dropReplica(tableID(table))
}

// ForgetRemote forgets what a tracked table's replica knows of its remote table: the
// outbox, the remote ETags and the checkpoint, which becomes checkpoint. The table stays
// tracked and keeps every entity, none of them queued: how a client starts taking a remote
// table as it is (a later pull then decides what stays). To queue them all for the push
// instead, as new to the remote, Untrack then Track.
func (tx *Tx) ForgetRemote(table, checkpoint string) error {
	if _, err := tx.Checkpoint(table); err != nil {
		return err
	}
	id := tableID(table)
	if err := tx.dropReplica(id); err != nil {
		return err
	}
	if err := tx.setOutboxCount(id, 0); err != nil {
		return err
	}
	return tx.set(trackKey(id), checkpoint)
}

// Checkpoint returns a tracked table's checkpoint ("" before the first pull), or
// ErrNotTracked.
func (tx *Tx) Checkpoint(table string) (string, error) {
	v, ok, err := tx.get(trackKey(tableID(table)))
	if err != nil || !ok {
		return "", orErr(err, ErrNotTracked)
	}
	return v, nil
}

// ApplyPulled applies a page of remote changes to a tracked table, as the server's and
// not as local changes: an entity whose remote ETag is already the one given is left
// alone; a key with a change waiting in the outbox is left alone (its push will meet the
// server's version); anything else takes the server's version and ETag. The checkpoint is
// stored in the same transaction. It returns the keys it changed locally.
func (tx *Tx) ApplyPulled(table string, p Pulled) (Applied, error) {
	var a Applied
	if _, err := tx.Checkpoint(table); err != nil {
		return a, err
	}
	id := tableID(table)
	tx.pulling = true
	defer func() { tx.pulling = false }()
	for _, re := range p.Entities {
		k := Key{re.Entity.PartitionKey, re.Entity.RowKey}
		ok, err := tx.pullEntity(id, k, re)
		if err != nil {
			return a, err
		}
		if ok {
			a.Written = append(a.Written, k)
		}
	}
	for _, k := range p.Deleted {
		ok, err := tx.pullDeletion(id, k, p.OnlySynced)
		if err != nil {
			return a, err
		}
		if ok {
			a.Deleted = append(a.Deleted, k)
		}
	}
	if !p.SetCheckpoint {
		return a, nil
	}
	return a, tx.set(trackKey(id), p.Checkpoint)
}

// Applied lists the keys a pull changed locally: written with the server's version, or deleted.
type Applied struct {
	Written []Key
	Deleted []Key
}

// Len is the number of keys changed.
func (a Applied) Len() int { return len(a.Written) + len(a.Deleted) }

// pullEntity writes a remote version unless the key is pending or already at that ETag.
func (tx *Tx) pullEntity(id string, k Key, re RemoteEntity) (bool, error) {
	if pending, err := tx.has(outboxKey(id, k.PartitionKey, k.RowKey)); err != nil || pending {
		return false, err
	}
	base, _, err := tx.get(remoteKey(id, k.PartitionKey, k.RowKey))
	if err != nil || (base == re.ETag && base != "") {
		return false, err
	}
	return true, tx.takeRemote(id, k, re.Entity, re.ETag)
}

// pullDeletion deletes a key locally unless it is pending (or, onlySynced, never synced).
func (tx *Tx) pullDeletion(id string, k Key, onlySynced bool) (bool, error) {
	if pending, err := tx.has(outboxKey(id, k.PartitionKey, k.RowKey)); err != nil || pending {
		return false, err
	}
	synced, err := tx.has(remoteKey(id, k.PartitionKey, k.RowKey))
	if err != nil || (onlySynced && !synced) {
		return false, err
	}
	exists, err := tx.has(entityKey(id, k.PartitionKey, k.RowKey))
	if err != nil || (!exists && !synced) {
		return false, err
	}
	return exists, tx.takeRemote(id, k, nil, "")
}

// takeRemote makes the local copy of k the remote version e (nil: deleted) with its ETag,
// as a sync write: the outbox record is cleared, none is added.
func (tx *Tx) takeRemote(id string, k Key, e *Entity, etag string) error {
	pulling := tx.pulling
	tx.pulling = true
	defer func() { tx.pulling = pulling }()
	if err := tx.removeOutbox(id, k); err != nil {
		return err
	}
	if e == nil {
		if err := tx.delIfPresent(remoteKey(id, k.PartitionKey, k.RowKey)); err != nil {
			return err
		}
		if ok, err := tx.has(entityKey(id, k.PartitionKey, k.RowKey)); err != nil || !ok {
			return err
		}
		_, err := tx.apply(id, Op{Kind: OpDelete, Entity: &Entity{PartitionKey: k.PartitionKey, RowKey: k.RowKey}})
		return err
	}
	local := &Entity{PartitionKey: k.PartitionKey, RowKey: k.RowKey, Properties: e.Properties}
	if _, err := tx.apply(id, Op{Kind: OpInsertOrReplace, Entity: local}); err != nil {
		return err
	}
	return tx.set(remoteKey(id, k.PartitionKey, k.RowKey), etag)
}

// Outbox lists up to limit pending changes of a tracked table after key `after` (the
// zero Key for the first), in key order.
func (tx *Tx) Outbox(table string, after Key, limit int) ([]Pending, error) {
	if _, err := tx.Checkpoint(table); err != nil {
		return nil, err
	}
	id := tableID(table)
	prefix := outboxPrefix + id + sep
	from := prefix
	if after != (Key{}) {
		from = outboxKey(id, after.PartitionKey, after.RowKey) + "\x00"
	}
	var keys []Key
	err := tx.ascend(from, prefix+"\xff", func(k, _ string) bool {
		pk, rk := splitEntityKey(k, len(prefix))
		keys = append(keys, Key{pk, rk})
		return limit <= 0 || len(keys) < limit
	})
	if err != nil {
		return nil, err
	}
	out := make([]Pending, len(keys))
	for i, k := range keys {
		if out[i], err = tx.pending(id, k); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// pending reads the base ETag and local entity of key k of table id.
func (tx *Tx) pending(id string, k Key) (Pending, error) {
	p := Pending{Key: k}
	base, _, err := tx.get(remoteKey(id, k.PartitionKey, k.RowKey))
	if err != nil {
		return p, err
	}
	p.BaseETag = base
	p.Entity, err = tx.stored(entityKey(id, k.PartitionKey, k.RowKey), &Entity{PartitionKey: k.PartitionKey, RowKey: k.RowKey})
	return p, err
}

// SyncedKeys lists the keys of a tracked table that have a remote ETag, in key order.
func (tx *Tx) SyncedKeys(table string) ([]Key, error) {
	if _, err := tx.Checkpoint(table); err != nil {
		return nil, err
	}
	prefix := remotePrefix + tableID(table) + sep
	var keys []Key
	err := tx.ascend(prefix, prefix+"\xff", func(k, _ string) bool {
		pk, rk := splitEntityKey(k, len(prefix))
		keys = append(keys, Key{pk, rk})
		return true
	})
	return keys, err
}

// Pending counts the keys of a tracked table waiting in the outbox, reading one record.
func (tx *Tx) Pending(table string) (int, error) {
	if _, err := tx.Checkpoint(table); err != nil {
		return 0, err
	}
	return tx.outboxCount(tableID(table))
}
