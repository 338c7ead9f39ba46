package core

import (
	"strconv"

	"github.com/tabletopdb/tabletop/core/model"
)

// Records of a host's own. A package that keeps records beside the data model's, in the
// same transactions (the browser's sync replica, core/replica), reads and writes them with
// the Raw methods, under key prefixes of its own (see core/stored: KeyUnder), and learns of the
// application's writes through the store's Hooks. Its records are logged, undone and made
// durable with the transaction's other writes.

// Hooks let a host keep records of its own in step with the application's writes. A
// store runs them only if Options.Hooks is set: the native server and the edge set none,
// and their writes call no host's code.
type Hooks interface {
	// LocalWrite is called inside the transaction of each entity write the application
	// makes (Apply, a batch, an import; not ApplyQuiet), before the write, with the id of
	// its table (TableID) and the entity's keys.
	LocalWrite(tx *Tx, tableID, pk, rk string) error
	// DropTable is called inside the transaction that deletes the table of id.
	DropTable(tx *Tx, tableID string) error
}

// Hooks returns the store's Hooks (Options.Hooks), nil if it has none.
func (tx *Tx) Hooks() Hooks { return tx.store.opts.Hooks }

// RawGet returns the value of a host's record and whether it exists.
func (tx *Tx) RawGet(key string) (string, bool, error) { return tx.get(key) }

// RawSet writes a host's record.
func (tx *Tx) RawSet(key, value string) error { return tx.set(key, value) }

// RawDelete deletes a host's record if it exists.
func (tx *Tx) RawDelete(key string) error {
	if _, ok, err := tx.get(key); err != nil || !ok {
		return err
	}
	return tx.del(key)
}

// RawDeletePrefix deletes every record whose key starts with prefix.
func (tx *Tx) RawDeletePrefix(prefix string) error { return tx.deletePrefix(prefix) }

// RawAscend calls fn with the records whose keys lie in [from, to), in key order, until
// it returns false.
func (tx *Tx) RawAscend(from, to string, fn func(key, value string) bool) error {
	return tx.ascend(from, to, fn)
}

// AdvanceClock moves the store's clock on to ts if ts is later, so that every later write
// takes a Timestamp after it: for a host that copies in, with RawSet, records another
// store stamped (a range moved between stores keeps its Timestamps, and so its ETags).
func (tx *Tx) AdvanceClock(ts model.DateTime) error {
	if ts <= tx.store.clock {
		return nil
	}
	tx.store.clock = ts
	return tx.set(clockKey, strconv.FormatInt(int64(ts), 10))
}

// ApplyQuiet performs op as Apply does but calls no Hooks.LocalWrite: a write the host
// makes itself, not the application (a sync client taking the server's version).
func (tx *Tx) ApplyQuiet(table string, op Op) (*model.Entity, error) {
	quiet := tx.quiet
	tx.quiet = true
	defer func() { tx.quiet = quiet }()
	return tx.Apply(table, op)
}
