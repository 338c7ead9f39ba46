package core

import "strconv"

// The outbox count. A tracked table keeps how many outbox records it has in one record
// (c\0{table id}), changed in the same transaction as the outbox, so that a client can
// show how many local changes wait for the push after every write without reading the
// outbox. A table tracked before counts were kept has no such record: its outbox is
// counted once, by the first transaction that changes it, which then writes the record.

// countKey is the key of table id's outbox count.
func countKey(id string) string { return countPrefix + id }

// outboxCount returns how many outbox records table id has.
func (tx *Tx) outboxCount(id string) (int, error) {
	v, ok, err := tx.get(countKey(id))
	if err != nil {
		return 0, err
	}
	if !ok {
		return tx.countOutbox(id)
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		return 0, errCorrupt
	}
	return n, nil
}

// countOutbox counts table id's outbox records by reading them.
func (tx *Tx) countOutbox(id string) (int, error) {
	prefix := outboxPrefix + id + sep
	n := 0
	err := tx.ascend(prefix, prefix+"\xff", func(_, _ string) bool {
		n++
		return true
	})
	return n, err
}

// setOutboxCount stores n as table id's outbox count.
func (tx *Tx) setOutboxCount(id string, n int) error {
	return tx.set(countKey(id), strconv.Itoa(n))
}

// addOutbox queues entity (pk, rk) of table id for the push, counting it if it is new.
func (tx *Tx) addOutbox(id, pk, rk string) error {
	key := outboxKey(id, pk, rk)
	if ok, err := tx.has(key); err != nil || ok {
		return err
	}
	n, err := tx.outboxCount(id)
	if err != nil {
		return err
	}
	if err := tx.set(key, ""); err != nil {
		return err
	}
	return tx.setOutboxCount(id, n+1)
}

// removeOutbox clears key k's outbox record of table id, if it has one, and counts it out.
func (tx *Tx) removeOutbox(id string, k Key) error {
	key := outboxKey(id, k.PartitionKey, k.RowKey)
	if ok, err := tx.has(key); err != nil || !ok {
		return err
	}
	n, err := tx.outboxCount(id)
	if err != nil {
		return err
	}
	if err := tx.del(key); err != nil {
		return err
	}
	return tx.setOutboxCount(id, n-1)
}
