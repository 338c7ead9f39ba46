package replica

import (
	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/core/stored"
)

// Pending is an outbox item: a key changed locally and not pushed yet, with the base ETag
// (the server's ETag the change derives from, "" for none) and the local entity (nil when
// it was deleted).
type Pending struct {
	model.Key
	BaseETag string
	Entity   *model.Entity
}

// LocalETag is the ETag of the local version the item was read at, "" for a deletion.
func (p Pending) LocalETag() string {
	if p.Entity == nil {
		return ""
	}
	return p.Entity.ETag()
}

// Outbox lists up to limit pending changes of a tracked table after key `after` (the
// zero Key for the first), in key order.
func Outbox(tx *core.Tx, table string, after model.Key, limit int) ([]Pending, error) {
	if _, err := Checkpoint(tx, table); err != nil {
		return nil, err
	}
	id := stored.TableID(table)
	prefix := stored.PrefixUnder(outboxPrefix, id)
	from := prefix
	if after != (model.Key{}) {
		from = outboxKey(id, after.PartitionKey, after.RowKey) + "\x00"
	}
	var keys []model.Key
	err := tx.RawAscend(from, prefix+"\xff", func(k, _ string) bool {
		pk, rk := stored.SplitEntityKey(k, len(prefix))
		keys = append(keys, model.Key{PartitionKey: pk, RowKey: rk})
		return limit <= 0 || len(keys) < limit
	})
	if err != nil {
		return nil, err
	}
	out := make([]Pending, len(keys))
	for i, k := range keys {
		if out[i], err = pending(tx, table, k); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// pending reads the base ETag and local entity of key k of table.
func pending(tx *core.Tx, table string, k model.Key) (Pending, error) {
	p := Pending{Key: k}
	base, _, err := tx.RawGet(remoteKey(stored.TableID(table), k.PartitionKey, k.RowKey))
	if err != nil {
		return p, err
	}
	p.BaseETag = base
	p.Entity, err = local(tx, table, k)
	return p, err
}

// SyncedKeys lists the keys of a tracked table that have a remote ETag, in key order.
func SyncedKeys(tx *core.Tx, table string) ([]model.Key, error) {
	if _, err := Checkpoint(tx, table); err != nil {
		return nil, err
	}
	prefix := stored.PrefixUnder(remotePrefix, stored.TableID(table))
	var keys []model.Key
	err := tx.RawAscend(prefix, prefix+"\xff", func(k, _ string) bool {
		pk, rk := stored.SplitEntityKey(k, len(prefix))
		keys = append(keys, model.Key{PartitionKey: pk, RowKey: rk})
		return true
	})
	return keys, err
}

// Acknowledge records that the server accepted the push of key k, which was read from
// the outbox at local ETag localETag ("" for a deletion): the remote ETag becomes
// remoteETag ("" when the server no longer has the entity), and the outbox record is
// cleared if the local copy is still the version pushed. If the application changed it
// since, the record stays, and the next push is based on remoteETag.
func Acknowledge(tx *core.Tx, table string, k model.Key, localETag, remoteETag string) error {
	if _, err := Checkpoint(tx, table); err != nil {
		return err
	}
	id := stored.TableID(table)
	if err := setRemote(tx, id, k, remoteETag); err != nil {
		return err
	}
	current, err := local(tx, table, k)
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
	return removeOutbox(tx, id, k)
}

// Rebase keeps the local change of key k pending but bases it on the server's version
// remoteETag ("" when the server has none): how a resolver keeps the local version over
// the server's, which the next push then replaces with If-Match on remoteETag.
func Rebase(tx *core.Tx, table string, k model.Key, remoteETag string) error {
	if _, err := Checkpoint(tx, table); err != nil {
		return err
	}
	id := stored.TableID(table)
	if err := setRemote(tx, id, k, remoteETag); err != nil {
		return err
	}
	return addOutbox(tx, id, k.PartitionKey, k.RowKey)
}

// TakeRemote resolves a conflict on key k for the server: if the local copy is still at
// localETag ("" for deleted), it becomes the server's version e (nil: the server has
// none) with remoteETag, and the outbox record is cleared. It reports whether it did; a
// local copy changed since is left for the next push.
func TakeRemote(tx *core.Tx, table string, k model.Key, localETag string, e *model.Entity, remoteETag string) (bool, error) {
	if _, err := Checkpoint(tx, table); err != nil {
		return false, err
	}
	p, err := pending(tx, table, k)
	if err != nil || p.LocalETag() != localETag {
		return false, err
	}
	return true, takeRemote(tx, table, k, e, remoteETag)
}

// SameAsLocal reports whether the local copy of key k holds exactly e's properties (nil:
// whether it is absent): how a client recognizes its own earlier push in a conflict.
func SameAsLocal(tx *core.Tx, table string, k model.Key, e *model.Entity) (bool, error) {
	if _, err := tx.Table(table); err != nil {
		return false, err
	}
	l, err := local(tx, table, k)
	if err != nil || l == nil || e == nil {
		return l == nil && e == nil, err
	}
	return sameProperties(l.Properties, e.Properties), nil
}

// sameProperties reports whether a and b hold the same names with the same typed values,
// in any order.
func sameProperties(a, b []model.Property) bool {
	if len(a) != len(b) {
		return false
	}
	byName := make(map[string]model.Value, len(a))
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
func setRemote(tx *core.Tx, id string, k model.Key, etag string) error {
	if etag == "" {
		return tx.RawDelete(remoteKey(id, k.PartitionKey, k.RowKey))
	}
	return tx.RawSet(remoteKey(id, k.PartitionKey, k.RowKey), etag)
}
