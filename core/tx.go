package core

import (
	"errors"
	"strconv"

	"github.com/tidwall/buntdb"
)

// Tx is a transaction on a Store, valid only inside the View or Update function it was
// given to. Writes made through it are applied together or not at all.
type Tx struct {
	store    *Store
	btx      *buntdb.Tx
	writable bool
	logging  bool     // record a change set for the backend
	log      []byte   // the change set: buntdb commands in RESP form
	ts       DateTime // the Timestamp of every entity this transaction writes, once issued
	pulling  bool     // writes are the sync client's, not queued for the push (see replica.go)
}

// clockKey holds the last Timestamp issued, so it survives a reopen.
const clockKey = metaPrefix + "clock"

func decodeClock(v string) DateTime {
	n, _ := strconv.ParseInt(v, 10, 64)
	return DateTime(n)
}

// timestamp returns the Timestamp for this transaction's writes, issuing it on first use.
func (tx *Tx) timestamp() DateTime {
	if tx.ts == 0 {
		tx.ts = tx.store.nextTimestamp()
		tx.set(clockKey, strconv.FormatInt(int64(tx.ts), 10))
		tx.ensureStoreID()
	}
	return tx.ts
}

// get returns the value at key and whether it exists.
func (tx *Tx) get(key string) (string, bool, error) {
	v, err := tx.btx.Get(key)
	if errors.Is(err, buntdb.ErrNotFound) {
		return "", false, nil
	}
	return v, err == nil, err
}

// set writes key and records it in the change set.
func (tx *Tx) set(key, value string) error {
	if !tx.writable {
		return ErrTxReadOnly
	}
	if _, _, err := tx.btx.Set(key, value, nil); err != nil {
		return err
	}
	if tx.logging {
		tx.log = appendCommand(tx.log, "set", key, value)
	}
	return nil
}

// del removes key and records it in the change set.
func (tx *Tx) del(key string) error {
	if !tx.writable {
		return ErrTxReadOnly
	}
	if _, err := tx.btx.Delete(key); err != nil && !errors.Is(err, buntdb.ErrNotFound) {
		return err
	}
	if tx.logging {
		tx.log = appendCommand(tx.log, "del", key)
	}
	return nil
}

// appendCommand appends one command in RESP array form, the format buntdb.Load reads.
func appendCommand(b []byte, args ...string) []byte {
	b = append(b, '*')
	b = strconv.AppendInt(b, int64(len(args)), 10)
	b = append(b, '\r', '\n')
	for _, a := range args {
		b = append(b, '$')
		b = strconv.AppendInt(b, int64(len(a)), 10)
		b = append(b, '\r', '\n')
		b = append(b, a...)
		b = append(b, '\r', '\n')
	}
	return b
}

// deletePrefix deletes every record whose key starts with prefix, each logged as a
// deletion like any other.
func (tx *Tx) deletePrefix(prefix string) error {
	var keys []string
	err := tx.btx.AscendRange("", prefix, prefix+"\xff", func(k, _ string) bool {
		keys = append(keys, k)
		return true
	})
	if err != nil {
		return err
	}
	for _, k := range keys {
		if err := tx.del(k); err != nil {
			return err
		}
	}
	return nil
}
