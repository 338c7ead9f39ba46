package replica

import (
	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/core/stored"
	"github.com/tabletopdb/tabletop/core/wire"
)

// Pulled is one page of remote changes for ApplyPulled: the entities as the server holds
// them with their ETags, the keys it deleted, and the checkpoint to store with them.
type Pulled struct {
	Entities []wire.RemoteEntity
	Deleted  []model.Key
	// Checkpoint replaces the table's checkpoint when SetCheckpoint is true.
	Checkpoint    string
	SetCheckpoint bool
	// OnlySynced restricts deletions to entities that have a remote ETag (a key
	// reconciliation deletes only what came from the server).
	OnlySynced bool
}

// Applied lists the keys a pull changed locally: written with the server's version, or deleted.
type Applied struct {
	Written []model.Key
	Deleted []model.Key
}

// Len is the number of keys changed.
func (a Applied) Len() int { return len(a.Written) + len(a.Deleted) }

// ApplyPulled applies a page of remote changes to a tracked table, as the server's and
// not as local changes: an entity whose remote ETag is already the one given is left
// alone; a key with a change waiting in the outbox is left alone (its push will meet the
// server's version); anything else takes the server's version and ETag. The checkpoint is
// stored in the same transaction. It returns the keys it changed locally.
func ApplyPulled(tx *core.Tx, table string, p Pulled) (Applied, error) {
	var a Applied
	if _, err := Checkpoint(tx, table); err != nil {
		return a, err
	}
	for _, re := range p.Entities {
		k := model.Key{PartitionKey: re.Entity.PartitionKey, RowKey: re.Entity.RowKey}
		ok, err := pullEntity(tx, table, k, re)
		if err != nil {
			return a, err
		}
		if ok {
			a.Written = append(a.Written, k)
		}
	}
	for _, k := range p.Deleted {
		ok, err := pullDeletion(tx, table, k, p.OnlySynced)
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
	return a, tx.RawSet(trackKey(stored.TableID(table)), p.Checkpoint)
}

// pullEntity writes a remote version unless the key is pending or already at that ETag.
func pullEntity(tx *core.Tx, table string, k model.Key, re wire.RemoteEntity) (bool, error) {
	id := stored.TableID(table)
	if pending, err := has(tx, outboxKey(id, k.PartitionKey, k.RowKey)); err != nil || pending {
		return false, err
	}
	base, _, err := tx.RawGet(remoteKey(id, k.PartitionKey, k.RowKey))
	if err != nil || (base == re.ETag && base != "") {
		return false, err
	}
	return true, takeRemote(tx, table, k, re.Entity, re.ETag)
}

// pullDeletion deletes a key locally unless it is pending (or, onlySynced, never synced).
func pullDeletion(tx *core.Tx, table string, k model.Key, onlySynced bool) (bool, error) {
	id := stored.TableID(table)
	if pending, err := has(tx, outboxKey(id, k.PartitionKey, k.RowKey)); err != nil || pending {
		return false, err
	}
	synced, err := has(tx, remoteKey(id, k.PartitionKey, k.RowKey))
	if err != nil || (onlySynced && !synced) {
		return false, err
	}
	e, err := local(tx, table, k)
	if err != nil || (e == nil && !synced) {
		return false, err
	}
	return e != nil, takeRemote(tx, table, k, nil, "")
}

// takeRemote makes the local copy of k the remote version e (nil: deleted) with its ETag,
// as a sync write: the outbox record is cleared, none is added.
func takeRemote(tx *core.Tx, table string, k model.Key, e *model.Entity, etag string) error {
	id := stored.TableID(table)
	if err := removeOutbox(tx, id, k); err != nil {
		return err
	}
	if e == nil {
		if err := tx.RawDelete(remoteKey(id, k.PartitionKey, k.RowKey)); err != nil {
			return err
		}
		if l, err := local(tx, table, k); err != nil || l == nil {
			return err
		}
		_, err := tx.ApplyQuiet(table, core.Op{Kind: core.OpDelete, Entity: &model.Entity{PartitionKey: k.PartitionKey, RowKey: k.RowKey}})
		return err
	}
	l := &model.Entity{PartitionKey: k.PartitionKey, RowKey: k.RowKey, Properties: e.Properties}
	if _, err := tx.ApplyQuiet(table, core.Op{Kind: core.OpInsertOrReplace, Entity: l}); err != nil {
		return err
	}
	return tx.RawSet(remoteKey(id, k.PartitionKey, k.RowKey), etag)
}
