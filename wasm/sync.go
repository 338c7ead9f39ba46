package main

import (
	"iter"
	"strconv"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/core/replica"
	"github.com/tabletopdb/tabletop/core/stored"
	"github.com/tabletopdb/tabletop/core/wire"
)

// syncHandler returns the sync client's operation op (web/src/sync.js) on a replicated
// table, nil for none; see core/replica for the records they keep. Writes among them
// leave records for IndexedDB like any write, so a pulled page and its checkpoint, or an
// acknowledgement, are durable together.
func syncHandler(op string) handler {
	switch op {
	case "syncTrack":
		return func(s *store, a [][]byte) ([]byte, error) {
			return nil, s.db.Update(func(tx *core.Tx) error { return replica.Track(tx, arg(a, 0)) })
		}
	case "syncUntrack":
		return func(s *store, a [][]byte) ([]byte, error) {
			return nil, s.db.Update(func(tx *core.Tx) error { return replica.Untrack(tx, arg(a, 0)) })
		}
	case "syncRequeue":
		return (*store).syncRequeue
	case "syncForget":
		return func(s *store, a [][]byte) ([]byte, error) {
			return nil, s.db.Update(func(tx *core.Tx) error { return replica.ForgetRemote(tx, arg(a, 0), arg(a, 1)) })
		}
	case "syncState":
		return (*store).syncState
	case "syncOutbox":
		return (*store).syncOutbox
	case "syncPull":
		return (*store).syncPull
	case "syncAck":
		return (*store).syncAck
	case "syncRebase":
		return func(s *store, a [][]byte) ([]byte, error) {
			return nil, s.db.Update(func(tx *core.Tx) error { return replica.Rebase(tx, arg(a, 0), keyArgs(a, 1), arg(a, 3)) })
		}
	case "syncTakeRemote":
		return (*store).syncTakeRemote
	case "syncSame":
		return (*store).syncSame
	case "syncKeys":
		return (*store).syncKeys
	}
	return nil
}

// keyArgs returns arguments i and i+1 as a key.
func keyArgs(a [][]byte, i int) model.Key {
	return model.Key{PartitionKey: arg(a, i), RowKey: arg(a, i+1)}
}

// remoteArg decodes argument i, a server's entity body, or nil when it is empty.
func remoteArg(a [][]byte, i int) (*model.Entity, error) {
	if len(arg(a, i)) == 0 {
		return nil, nil
	}
	return wire.DecodeEntity(a[i])
}

// syncAck acknowledges pushes in one transaction: arguments table, then for each push
// pk, rk, the local ETag pushed and the server's new ETag ("" when it has none).
func (s *store) syncAck(a [][]byte) ([]byte, error) {
	if len(a) < 5 || (len(a)-1)%4 != 0 {
		return nil, ErrActionInvalid
	}
	return nil, s.db.Update(func(tx *core.Tx) error {
		for i := 1; i < len(a); i += 4 {
			if err := replica.Acknowledge(tx, arg(a, 0), keyArgs(a, i), arg(a, i+2), arg(a, i+3)); err != nil {
				return err
			}
		}
		return nil
	})
}

// syncState answers {"checkpoint":"…","pending":n} for a tracked table.
func (s *store) syncState(a [][]byte) ([]byte, error) {
	var cp string
	var n int
	err := s.db.View(func(tx *core.Tx) (err error) {
		if cp, err = replica.Checkpoint(tx, arg(a, 0)); err != nil {
			return err
		}
		n, err = replica.PendingCount(tx, arg(a, 0))
		return err
	})
	if err != nil {
		return nil, err
	}
	b := wire.AppendString(append(s.scratch[:0], `{"checkpoint":`...), cp)
	return append(appendInt(append(b, `,"pending":`...), n), '}'), nil
}

// syncOutbox answers up to limit pending changes after a key: arguments table, after
// PartitionKey, after RowKey, limit. Each is
// {"pk","rk","base","local","body"}: body is the local entity as a JSON text with every
// type annotated (the request body of its push), "" for a deletion.
func (s *store) syncOutbox(a [][]byte) ([]byte, error) {
	var items []replica.Pending
	err := s.db.View(func(tx *core.Tx) (err error) {
		items, err = replica.Outbox(tx, arg(a, 0), keyArgs(a, 1), num(a, 3))
		return err
	})
	if err != nil {
		return nil, err
	}
	ctx := &wire.Context{Metadata: wire.NoMetadata, Exact: true}
	b := append(s.scratch[:0], '[')
	var body []byte
	for i, p := range items {
		if i > 0 {
			b = append(b, ',')
		}
		b = wire.AppendString(append(b, `{"pk":`...), p.PartitionKey)
		b = wire.AppendString(append(b, `,"rk":`...), p.RowKey)
		b = wire.AppendString(append(b, `,"base":`...), p.BaseETag)
		b = wire.AppendString(append(b, `,"local":`...), p.LocalETag())
		body = body[:0]
		if p.Entity != nil {
			body = wire.AppendEntity(body, p.Entity, ctx)
		}
		b = append(wire.AppendString(append(b, `,"body":`...), string(body)), '}')
	}
	return append(b, ']'), nil
}

// syncPull applies a page a remote endpoint answered: arguments table, the body, the
// checkpoint mode ("feed": store "feed:" + the body's tabletop.checkpoint; "set": store
// argument 3; "": keep the checkpoint), argument 3, and "1" to delete only synced keys
// (a key reconciliation). It answers
// {"changed":[["pk","rk",deleted]…],"entities":n,"hasCheckpoint":b,"checkpoint":"…","more":b}.
func (s *store) syncPull(a [][]byte) ([]byte, error) {
	page, err := wire.DecodePage(a[1])
	if err != nil {
		return nil, err
	}
	pulled := replica.Pulled{Entities: page.Entities, Deleted: page.Deleted, OnlySynced: arg(a, 4) == "1"}
	switch arg(a, 2) {
	case "feed":
		pulled.Checkpoint, pulled.SetCheckpoint = "feed:"+page.Checkpoint, page.HasCheckpoint
	case "set":
		pulled.Checkpoint, pulled.SetCheckpoint = arg(a, 3), true
	}
	var changed replica.Applied
	err = s.db.Update(func(tx *core.Tx) (err error) {
		changed, err = replica.ApplyPulled(tx, arg(a, 0), pulled)
		return err
	})
	if need, ok := asNeed(err); ok {
		return nil, s.needsOf(need, pulledKeys(stored.TableID(arg(a, 0)), page))
	}
	if err != nil {
		return nil, err
	}
	return appendPullAnswer(s.scratch[:0], page, changed), nil
}

// pulledKeys yields the keys a pull of page writes in table id, each with its RowKey (see
// needsOf): those of every entity and deletion in it (replica.Keys).
func pulledKeys(id string, page *wire.Page) iter.Seq2[string, string] {
	return func(yield func(key, rk string) bool) {
		for _, k := range page.Deleted {
			for _, key := range replica.Keys(id, k.PartitionKey, k.RowKey) {
				if !yield(key, k.RowKey) {
					return
				}
			}
		}
		for _, r := range page.Entities {
			for _, key := range replica.Keys(id, r.Entity.PartitionKey, r.Entity.RowKey) {
				if !yield(key, r.Entity.RowKey) {
					return
				}
			}
		}
	}
}

func appendPullAnswer(b []byte, page *wire.Page, changed replica.Applied) []byte {
	b = append(b, `{"changed":[`...)
	for i, k := range append(changed.Written, changed.Deleted...) {
		if i > 0 {
			b = append(b, ',')
		}
		b = wire.AppendString(append(b, '['), k.PartitionKey)
		b = wire.AppendString(append(b, ','), k.RowKey)
		b = append(appendBool(append(b, ','), i >= len(changed.Written)), ']')
	}
	b = appendInt(append(b, `],"entities":`...), len(page.Entities))
	b = appendBool(append(b, `,"hasCheckpoint":`...), page.HasCheckpoint)
	b = wire.AppendString(append(b, `,"checkpoint":`...), page.Checkpoint)
	return append(appendBool(append(b, `,"more":`...), page.More), '}')
}

// syncTakeRemote resolves a conflict for the server: arguments table, pk, rk, the local
// ETag the conflict was found at, the server's entity body ("" if it has none) and ETag.
// It answers true, or false if the local copy changed meanwhile.
func (s *store) syncTakeRemote(a [][]byte) ([]byte, error) {
	e, err := remoteArg(a, 4)
	if err != nil {
		return nil, err
	}
	var ok bool
	err = s.db.Update(func(tx *core.Tx) (err error) {
		ok, err = replica.TakeRemote(tx, arg(a, 0), keyArgs(a, 1), arg(a, 3), e, arg(a, 5))
		return err
	})
	return appendBool(nil, ok), err
}

// syncSame answers whether the local copy of a key equals a server's entity body ("":
// whether both have none): arguments table, pk, rk, body.
func (s *store) syncSame(a [][]byte) ([]byte, error) {
	e, err := remoteArg(a, 3)
	if err != nil {
		return nil, err
	}
	var ok bool
	err = s.db.View(func(tx *core.Tx) (err error) {
		ok, err = replica.SameAsLocal(tx, arg(a, 0), keyArgs(a, 1), e)
		return err
	})
	return appendBool(nil, ok), err
}

// syncRequeue queues every entity of a tracked table for the push as new to the remote
// (no base ETag), forgetting the outbox, remote ETags and checkpoint before: how a client
// pushes its whole copy to a remote table that lost it. Argument: the table.
func (s *store) syncRequeue(a [][]byte) ([]byte, error) {
	return nil, s.db.Update(func(tx *core.Tx) error {
		if _, err := replica.Checkpoint(tx, arg(a, 0)); err != nil {
			return err
		}
		if err := replica.Untrack(tx, arg(a, 0)); err != nil {
			return err
		}
		return replica.Track(tx, arg(a, 0))
	})
}

// syncKeys answers the keys of a tracked table that have a remote ETag, [["pk","rk"],…]:
// what a key reconciliation compares with the server's keys; with argument 1 "all", the
// keys of every local entity (what adopting a remote table compares).
func (s *store) syncKeys(a [][]byte) ([]byte, error) {
	var keys []model.Key
	err := s.db.View(func(tx *core.Tx) (err error) {
		if arg(a, 1) == "all" {
			keys, err = localKeys(tx, arg(a, 0))
			return err
		}
		keys, err = replica.SyncedKeys(tx, arg(a, 0))
		return err
	})
	if err != nil {
		return nil, err
	}
	b := append(s.scratch[:0], '[')
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = wire.AppendString(append(b, '['), k.PartitionKey)
		b = append(wire.AppendString(append(b, ','), k.RowKey), ']')
	}
	return append(b, ']'), nil
}

// localKeys lists the keys of every entity of a tracked table, in key order.
func localKeys(tx *core.Tx, table string) ([]model.Key, error) {
	if _, err := replica.Checkpoint(tx, table); err != nil {
		return nil, err
	}
	var keys []model.Key
	err := tx.ScanRecords(table, stored.WholeTable, func(r *stored.Record) bool {
		keys = append(keys, model.Key{PartitionKey: r.PartitionKey, RowKey: r.RowKey})
		return true
	})
	return keys, err
}

func appendBool(b []byte, v bool) []byte {
	if v {
		return append(b, "true"...)
	}
	return append(b, "false"...)
}

func appendInt(b []byte, n int) []byte { return strconv.AppendInt(b, int64(n), 10) }
