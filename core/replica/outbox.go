package replica

import (
	"errors"
	"strconv"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/core/stored"
)

// The outbox count. A tracked table keeps how many outbox records it has in one record
// (c\0{table id}), changed in the same transaction as the outbox, so that a client can
// show how many local changes wait for the push after every write without reading the
// outbox. A table tracked before counts were kept has no such record: its outbox is
// counted once, by the first transaction that changes it, which then writes the record.

// errCountCorrupt means an outbox count record does not hold a count.
var errCountCorrupt = errors.New("stored outbox count is corrupt")

// countKey is the key of table id's outbox count.
func countKey(id string) string { return countPrefix + id }

// outboxCount returns how many outbox records table id has.
func outboxCount(tx *core.Tx, id string) (int, error) {
	v, ok, err := tx.RawGet(countKey(id))
	if err != nil {
		return 0, err
	}
	if !ok {
		return countOutbox(tx, id)
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		return 0, errCountCorrupt
	}
	return n, nil
}

// countOutbox counts table id's outbox records by reading them.
func countOutbox(tx *core.Tx, id string) (int, error) {
	prefix := stored.PrefixUnder(outboxPrefix, id)
	n := 0
	err := tx.RawAscend(prefix, prefix+"\xff", func(_, _ string) bool {
		n++
		return true
	})
	return n, err
}

// setOutboxCount stores n as table id's outbox count.
func setOutboxCount(tx *core.Tx, id string, n int) error {
	return tx.RawSet(countKey(id), strconv.Itoa(n))
}

// addOutbox queues entity (pk, rk) of table id for the push, counting it if it is new.
func addOutbox(tx *core.Tx, id, pk, rk string) error {
	key := outboxKey(id, pk, rk)
	if ok, err := has(tx, key); err != nil || ok {
		return err
	}
	n, err := outboxCount(tx, id)
	if err != nil {
		return err
	}
	if err := tx.RawSet(key, ""); err != nil {
		return err
	}
	return setOutboxCount(tx, id, n+1)
}

// removeOutbox clears key k's outbox record of table id, if it has one, and counts it out.
func removeOutbox(tx *core.Tx, id string, k model.Key) error {
	key := outboxKey(id, k.PartitionKey, k.RowKey)
	if ok, err := has(tx, key); err != nil || !ok {
		return err
	}
	n, err := outboxCount(tx, id)
	if err != nil {
		return err
	}
	if err := tx.RawDelete(key); err != nil {
		return err
	}
	return setOutboxCount(tx, id, n-1)
}

// PendingCount counts the keys of a tracked table waiting in the outbox, reading one record.
func PendingCount(tx *core.Tx, table string) (int, error) {
	if _, err := Checkpoint(tx, table); err != nil {
		return 0, err
	}
	return outboxCount(tx, stored.TableID(table))
}
