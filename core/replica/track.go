package replica

import (
	"errors"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/azerr"
	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/core/stored"
)

// Errors of the replica.
var (
	// ErrNotTracked means a sync operation named a table that is not tracked for sync
	// (InvalidInput).
	ErrNotTracked error = azerr.New(azerr.InvalidInput, "table is not tracked for sync")
	// ErrNoHooks means Track was called on a store opened without this package's Hooks,
	// whose writes would not be queued for the push.
	ErrNoHooks = errors.New("the store was not opened with replica.Hooks")
)

const (
	trackPrefix  = "s\x00"
	outboxPrefix = "o\x00"
	remotePrefix = "r\x00"
	countPrefix  = "c\x00"
)

// trackKey is the key of table id's sync state.
func trackKey(id string) string { return trackPrefix + id }

// outboxKey is the key of entity (pk, rk)'s outbox record in table id.
func outboxKey(id, pk, rk string) string { return stored.KeyUnder(outboxPrefix, id, pk, rk) }

// remoteKey is the key of entity (pk, rk)'s remote ETag in table id.
func remoteKey(id, pk, rk string) string { return stored.KeyUnder(remotePrefix, id, pk, rk) }

// Keys returns the keys the records of entity (pk, rk) of table id are kept under in a
// replicated table: the entity, its deletion record, its outbox record and its remote
// ETag. A write of the entity by the sync client may touch any of them, so a partial
// store must hold them all (core.Options.Partial).
func Keys(id, pk, rk string) []string {
	return []string{stored.EntityKey(id, pk, rk), stored.DeletionKey(id, pk, rk), outboxKey(id, pk, rk), remoteKey(id, pk, rk)}
}

// Hooks are the core.Hooks of a store whose tables may be replicated: set
// core.Options.Hooks to Hooks{}.
type Hooks struct{}

// LocalWrite queues entity (pk, rk) of table id for the push, if the table is tracked.
func (Hooks) LocalWrite(tx *core.Tx, id, pk, rk string) error {
	ok, err := has(tx, trackKey(id))
	if err != nil || !ok {
		return err
	}
	return addOutbox(tx, id, pk, rk)
}

// DropTable removes table id's sync state, outbox and remote ETags.
func (Hooks) DropTable(tx *core.Tx, id string) error {
	for _, prefix := range []string{stored.PrefixUnder(outboxPrefix, id), stored.PrefixUnder(remotePrefix, id)} {
		if err := tx.RawDeletePrefix(prefix); err != nil {
			return err
		}
	}
	if err := tx.RawDelete(countKey(id)); err != nil {
		return err
	}
	return tx.RawDelete(trackKey(id))
}

// Track marks a table as replicated: from now on every local write of it is queued in
// the outbox. Entities it already holds are queued too (they are new to the server).
// Tracking a tracked table changes nothing. The store must have been opened with Hooks.
func Track(tx *core.Tx, table string) error {
	if _, ok := tx.Hooks().(Hooks); !ok {
		return ErrNoHooks
	}
	if _, err := tx.Table(table); err != nil {
		return err
	}
	id := stored.TableID(table)
	if ok, err := has(tx, trackKey(id)); err != nil || ok {
		return err
	}
	var keys []model.Key
	err := tx.ScanRecords(table, stored.WholeTable, func(r *stored.Record) bool {
		keys = append(keys, model.Key{PartitionKey: r.PartitionKey, RowKey: r.RowKey})
		return true
	})
	if err != nil {
		return err
	}
	for _, k := range keys {
		if err := tx.RawSet(outboxKey(id, k.PartitionKey, k.RowKey), ""); err != nil {
			return err
		}
	}
	if err := setOutboxCount(tx, id, len(keys)); err != nil {
		return err
	}
	return tx.RawSet(trackKey(id), "")
}

// Untrack stops replicating a table and forgets its outbox, remote ETags and checkpoint.
func Untrack(tx *core.Tx, table string) error {
	return Hooks{}.DropTable(tx, stored.TableID(table))
}

// ForgetRemote forgets what a tracked table's replica knows of its remote table: the
// outbox, the remote ETags and the checkpoint, which becomes checkpoint. The table stays
// tracked and keeps every entity, none of them queued: how a client starts taking a remote
// table as it is (a later pull then decides what stays). To queue them all for the push
// instead, as new to the remote, Untrack then Track.
func ForgetRemote(tx *core.Tx, table, checkpoint string) error {
	if _, err := Checkpoint(tx, table); err != nil {
		return err
	}
	id := stored.TableID(table)
	if err := (Hooks{}).DropTable(tx, id); err != nil {
		return err
	}
	if err := setOutboxCount(tx, id, 0); err != nil {
		return err
	}
	return tx.RawSet(trackKey(id), checkpoint)
}

// Checkpoint returns a tracked table's checkpoint ("" before the first pull), or
// ErrNotTracked.
func Checkpoint(tx *core.Tx, table string) (string, error) {
	v, ok, err := tx.RawGet(trackKey(stored.TableID(table)))
	if err != nil {
		return "", err
	}
	if !ok {
		return "", ErrNotTracked
	}
	return v, nil
}

// has reports whether the record at key exists.
func has(tx *core.Tx, key string) (bool, error) {
	_, ok, err := tx.RawGet(key)
	return ok, err
}

// local reads the local copy of entity k of table, nil if there is none.
func local(tx *core.Tx, table string, k model.Key) (*model.Entity, error) {
	e, err := tx.Get(table, k.PartitionKey, k.RowKey)
	if errors.Is(err, core.ErrEntityNotFound) {
		return nil, nil
	}
	return e, err
}
