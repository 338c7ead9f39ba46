package core

import (
	"errors"
	"strconv"

	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/core/stored"
	"github.com/tidwall/buntdb"
)

// Tx is a transaction on a Store, valid only inside the View or Update function it was
// given to. Writes made through it are applied together or not at all.
type Tx struct {
	store    *Store
	btx      *buntdb.Tx
	writable bool
	logging  bool // record a change set for the backend
	undoing  bool // record how to undo each write, until the change set is durable (see rollback.go)
	undo     []undoWrite
	log      []byte         // the change set: buntdb commands in RESP form
	ts       model.DateTime // the Timestamp of every entity this transaction writes, once issued
	quiet    bool           // writes are the host's own, not the application's: no Hooks.LocalWrite (ApplyQuiet)
	dirty    bool           // the transaction wrote something
	factsID  string         // the table whose facts this transaction knows, "" for none (see useTable)
	facts    tableFacts     // that table's facts

	patches     []entityWrite  // the writes to tables with a scan image, applied at commit
	pointWrites []entityWrite  // the writes to tables with a point map, applied at commit
	pointWrite  [1]entityWrite // the room of pointWrites for a transaction's first write
}

// clockKey holds the last Timestamp issued, so it survives a reopen.
const clockKey = stored.MetaPrefix + "clock"

func decodeClock(v string) model.DateTime {
	n, _ := strconv.ParseInt(v, 10, 64)
	return model.DateTime(n)
}

// timestamp returns the Timestamp for this transaction's writes, issuing it on first use.
func (tx *Tx) timestamp() (model.DateTime, error) {
	if tx.ts != 0 {
		return tx.ts, nil
	}
	// In a partial store the clock's range may not be resident: the set fails with
	// ErrNeedRange and the transaction with it (the clock has only moved on).
	ts := tx.store.nextTimestamp()
	if err := tx.set(clockKey, strconv.FormatInt(int64(ts), 10)); err != nil {
		return 0, err
	}
	if err := tx.ensureStoreID(); err != nil {
		return 0, err
	}
	tx.ts = ts
	return ts, nil
}

// get returns the value at key and whether it exists.
func (tx *Tx) get(key string) (string, bool, error) {
	if err := tx.store.needKey(key); err != nil {
		return "", false, err
	}
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
	if err := tx.store.needKey(key); err != nil {
		return err
	}
	prev, replaced, err := tx.btx.Set(key, value, nil)
	if err != nil {
		return err
	}
	if tx.undoing {
		tx.undo = append(tx.undo, undoWrite{key: key, prev: prev, existed: replaced})
	}
	tx.wrote(key, value, false)
	if tx.logging {
		tx.log = stored.AppendCommand(tx.log, "set", key, value)
	}
	return nil
}

// setNew writes key, which must be absent: when it was there, its value is put back and
// setNew fails with ErrEntityExists, having changed nothing.
func (tx *Tx) setNew(key, value string) error {
	if !tx.writable {
		return ErrTxReadOnly
	}
	if err := tx.store.needKey(key); err != nil {
		return err
	}
	prev, replaced, err := tx.btx.Set(key, value, nil)
	if err != nil {
		return err
	}
	if replaced {
		if _, _, err := tx.btx.Set(key, prev, nil); err != nil {
			return err
		}
		return ErrEntityExists
	}
	if tx.undoing {
		tx.undo = append(tx.undo, undoWrite{key: key})
	}
	tx.wrote(key, value, false)
	if tx.logging {
		tx.log = stored.AppendCommand(tx.log, "set", key, value)
	}
	return nil
}

// entityWrite is one entity a transaction wrote to a table with a scan image or a point
// map, as the structure is patched with it at commit; a scan image also keeps those
// written since it was built (scanImage.over).
type entityWrite struct {
	id      string // the table's id, in a transaction's list of writes
	key     string // the entity's key, after the table's prefix
	value   string // its stored form, unless deleted
	deleted bool
}

// newEntityWrite is the write of entity key (a full key) of table id.
func newEntityWrite(id, key, value string, deleted bool) entityWrite {
	return entityWrite{id: id, key: key[len(stored.EntityPrefix)+len(id)+len(stored.Sep):], value: value, deleted: deleted}
}

// wrote notes a write of key made in buntdb (set to value, or deleted) to what the store
// keeps beside the index: its table's scan image and point map are patched at commit, and
// the table facts the write could make wrong are dropped. set, setNew and del call it once the write is made.
func (tx *Tx) wrote(key, value string, deleted bool) {
	tx.dirty = true
	tx.patchImage(key, value, deleted)
	tx.patchPoints(key, value, deleted)
	tx.dropFacts(key)
}

// del removes key and records it in the change set.
func (tx *Tx) del(key string) error {
	if !tx.writable {
		return ErrTxReadOnly
	}
	if err := tx.store.needKey(key); err != nil {
		return err
	}
	prev, err := tx.btx.Delete(key)
	switch {
	case err == nil && tx.undoing:
		tx.undo = append(tx.undo, undoWrite{key: key, prev: prev, existed: true})
	case err != nil && !errors.Is(err, buntdb.ErrNotFound):
		return err
	}
	tx.wrote(key, "", true)
	if tx.logging {
		tx.log = stored.AppendCommand(tx.log, "del", key)
	}
	return nil
}

// deletePrefix deletes every record whose key starts with prefix, each logged as a
// deletion like any other.
func (tx *Tx) deletePrefix(prefix string) error {
	var keys []string
	err := tx.ascend(prefix, prefix+"\xff", func(k, _ string) bool {
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

// ascend calls fn with each record whose key lies in [from, to), in key order, until fn
// returns false. In a partial store it reads the resident part of the range up to the
// first absent key range and answers a *NeedRangeError for that range if fn still wants
// more: a scan that stops early needs only what it read.
func (tx *Tx) ascend(from, to string, fn func(k, v string) bool) error {
	end, missing := to, error(nil)
	if r := tx.store.resident; r != nil {
		if lo, hi, ok := r.missing(from, to); ok {
			end, missing = lo, &NeedRangeError{Lo: lo, Hi: hi}
		}
	}
	stopped := false
	if from < end {
		// The upper bound is checked here, by one string comparison, rather than by
		// AscendRange, which compares each item through the index's less function.
		err := tx.btx.AscendGreaterOrEqual("", from, func(k, v string) bool {
			if k >= end {
				return false
			}
			stopped = !fn(k, v)
			return !stopped
		})
		if err != nil {
			return err
		}
	}
	if stopped {
		return nil
	}
	return missing
}
