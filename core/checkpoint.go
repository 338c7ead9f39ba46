package core

import (
	"errors"
	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/core/stored"
)

// Errors of a change feed checkpoint. Each tells a sync client something different about
// the copy it holds: ErrCheckpointExpired that the table it copied is still there but the
// feed can no longer say what was deleted from it (a full read of the table does, and
// whatever the client holds that the table lacks was deleted); the other two that the
// table it copied is gone or its history is not this store's, so the table's absence of an
// entity proves nothing about it: the client keeps its copy and lets its application decide.
var (
	// ErrCheckpointExpired means a change feed cannot resume from a checkpoint of this
	// store and this table: deletions its reader needs may have been purged (see
	// Checkpoint). A sync client then reconciles: it reads the whole table again and
	// deletes what it holds that the table no longer has.
	ErrCheckpointExpired = errors.New("checkpoint is older than the deletion records kept")
	// ErrCheckpointOtherStore means a checkpoint comes from another history than this
	// store's: another store's identity (the server's data was replaced, as when it starts
	// afresh), or a position later than anything this store has issued (a restored older
	// copy).
	ErrCheckpointOtherStore = errors.New("checkpoint comes from another store")
	// ErrNoChangeFeed means the store keeps no change feed (Options.NoChangeFeed).
	ErrNoChangeFeed = errors.New("store keeps no change feed")
	// ErrTableReplaced means the table a checkpoint was issued for was deleted since: the
	// table of that name now is another incarnation (see Table.Incarnation).
	ErrTableReplaced = errors.New("checkpoint comes from a table deleted since")
)

// checkCheckpoint returns an error if a change feed of table id, of incarnation table,
// cannot resume exactly from since, which is not the zero Checkpoint:
// ErrCheckpointOtherStore if since comes from another store, or from a later state of this
// one (a restored older copy); ErrTableReplaced if it comes from another incarnation of the
// table, or the table was deleted after since; ErrCheckpointExpired if a deletion it may
// need was purged (see Checkpoint: the horizon is at or after since and after
// since.Synced), or since is older than the retention and the horizon moved since
// since.Synced, or the store keeps no deletion records.
func (tx *Tx) checkCheckpoint(id string, store, table model.Guid, since Checkpoint) error {
	clock, err := tx.clock()
	if err != nil {
		return err
	}
	if since.Store != store || since.Timestamp > clock || since.Synced > clock {
		return ErrCheckpointOtherStore
	}
	if err := tx.checkIncarnation(id, table, since); err != nil {
		return err
	}
	s := tx.store
	if s.opts.DeletionRetention <= 0 {
		return ErrCheckpointExpired
	}
	h, err := tx.horizon()
	if err != nil {
		return err
	}
	moved := h > since.Synced || since.Synced == 0
	if moved && (since.Timestamp <= h || since.Timestamp < s.retentionCutoff()) {
		return ErrCheckpointExpired
	}
	return nil
}

// checkIncarnation returns ErrTableReplaced unless since was issued for incarnation table
// of table id and the table was not deleted after it. A checkpoint of a server before
// incarnations carries the zero Guid, as do the tables it knew: a table created since has
// another.
func (tx *Tx) checkIncarnation(id string, table model.Guid, since Checkpoint) error {
	if since.Table != table {
		return ErrTableReplaced
	}
	v, ok, err := tx.get(stored.TableDeletionKey(id))
	if err != nil {
		return err
	}
	if ok && since.Timestamp <= stampOf(v) {
		return ErrTableReplaced
	}
	return nil
}
