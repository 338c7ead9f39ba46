package core

import "errors"

// Replica metadata. A table replicated by a sync client (see Tx.Track) keeps, beside its
// entities and in the same transactions:
//
//	s\0{table id}                          the table is tracked; value: the client's checkpoint (opaque)
//	o\0{table id}\0{PartitionKey}\0{RowKey} outbox: the entity changed locally and is not pushed yet
//	r\0{table id}\0{PartitionKey}\0{RowKey} remote ETag: the server's ETag of the version the local copy derives from
//	c\0{table id}                          how many outbox records the table has (see replica_outbox.go)
//
// Every local write of a tracked table (Tx.Apply, a batch, an import) adds the entity's
// outbox record in the same transaction, so a write that is durable is also queued for
// the push. Writes the sync client makes (Tx.ApplyPulled, Tx.TakeRemote) do not. None of
// these records is an entity: no query, Get or change feed shows them.

// ErrNotTracked means a sync operation named a table that is not tracked for sync.
var ErrNotTracked = errors.New("table is not tracked for sync")

// ErrNoReplicas means Track was called on a store opened without Options.Replicas.
var ErrNoReplicas = errors.New("the store keeps no sync replicas (Options.Replicas)")

const (
	trackPrefix  = "s\x00"
	outboxPrefix = "o\x00"
	remotePrefix = "r\x00"
	countPrefix  = "c\x00"
)

// trackKey is the key of table id's sync state.
func trackKey(id string) string { return trackPrefix + id }

// outboxKey is the key of entity (pk, rk)'s outbox record in table id.
func outboxKey(id, pk, rk string) string { return outboxPrefix + id + sep + pk + sep + rk }

// remoteKey is the key of entity (pk, rk)'s remote ETag in table id.
func remoteKey(id, pk, rk string) string { return remotePrefix + id + sep + pk + sep + rk }

// tracked reports whether table id is tracked for sync.
func (tx *Tx) tracked(id string) (bool, error) {
	_, ok, err := tx.get(trackKey(id))
	return ok, err
}

// noteLocalChange queues entity (pk, rk) of table id for the push, if the table is
// tracked and the write is the application's, not the sync client's.
func (tx *Tx) noteLocalChange(id, pk, rk string) error {
	if tx.pulling {
		return nil
	}
	if f, ok := tx.known(id); ok && f.untracked {
		return nil
	}
	ok, err := tx.tracked(id)
	if err != nil || !ok {
		return err
	}
	return tx.addOutbox(id, pk, rk)
}

// dropReplica removes table id's sync state, outbox and remote ETags.
func (tx *Tx) dropReplica(id string) error {
	if err := tx.deletePrefix(outboxPrefix + id + sep); err != nil {
		return err
	}
	if err := tx.deletePrefix(remotePrefix + id + sep); err != nil {
		return err
	}
	if err := tx.delIfPresent(countKey(id)); err != nil {
		return err
	}
	if _, ok, err := tx.get(trackKey(id)); err != nil || !ok {
		return err
	}
	return tx.del(trackKey(id))
}
