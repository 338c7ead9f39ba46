package core

import (
	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/core/stored"
	"github.com/tidwall/buntdb"
)

// The change feed of a table lists its entities and the deletion records of its entities
// (see recordDeletion) in the order (Timestamp, PartitionKey, RowKey). Every write
// transaction takes a Timestamp later than every one before it, so a write committed while
// a reader pages through the feed lands after the reader's position: resuming after the
// last change seen never skips a change nor repeats one, whatever is written meanwhile.
// An entity written again leaves its old position and appears at its new one.

// changeIndex is the buntdb index of entities in Timestamp order.
const changeIndex = "changes"

// changeChunk is how many changes of each kind the feed reads from its index at a time.
const changeChunk = 128

// Checkpoint is a position in a table's change feed: the Timestamp and keys of the last
// change a reader has seen, the identities of the store that issued it and of the table's
// incarnation (see Table.Incarnation), and Synced, a reading of that store's clock such
// that the reader needs no deletion at or before it. The Checkpoint whose Timestamp and
// keys are zero is the start of the feed, in any store.
//
// Synced is what lets a reader page through a table whose entities are older than the
// deletion records already purged. A reader that starts at the beginning of the feed holds
// nothing, so a deletion committed before its first page concerns an entity it never sees:
// it needs only deletions committed after that page, whose Timestamps are later than the
// store's clock then, which every page carries forward as Synced. A reader that reads the
// feed to its end has every change so far, and needs only later deletions: its checkpoint
// takes the clock of that last page as Synced (see Tx.CaughtUp). The deletions a reader at
// c still needs thus come after c in feed order and after c.Synced; one of them can have
// been purged only if the store's deletion horizon (the latest Timestamp of a purged
// record) is both at or after c.Timestamp and after c.Synced, and only then does Changes
// refuse c. A Synced of zero (a checkpoint of an older server) says nothing, and c is
// refused whenever the horizon or the retention passed c.Timestamp.
type Checkpoint struct {
	Store        model.Guid // the store's identity (see Tx.StoreID)
	Table        model.Guid // the table's incarnation (see Table.Incarnation)
	Timestamp    model.DateTime
	PartitionKey string
	RowKey       string
	Synced       model.DateTime // the store's clock before every deletion the reader still needs
}

// IsZero reports whether c is the start of the feed.
func (c Checkpoint) IsZero() bool { return c.Timestamp == 0 && c.PartitionKey == "" && c.RowKey == "" }

// Before reports whether c comes before o in feed order.
func (c Checkpoint) Before(o Checkpoint) bool {
	if c.Timestamp != o.Timestamp {
		return c.Timestamp < o.Timestamp
	}
	if c.PartitionKey != o.PartitionKey {
		return c.PartitionKey < o.PartitionKey
	}
	return c.RowKey < o.RowKey
}

// Change is one item of a table's change feed: an entity as stored, or the record of a
// deleted one. Its Checkpoint is its position: the entity's Timestamp, or the deletion's.
type Change struct {
	Checkpoint
	// Entity is the entity as stored; nil when the change is a deletion.
	Entity *model.Entity
}

// Deleted reports whether the change is the deletion of the entity at its keys.
func (c Change) Deleted() bool { return c.Entity == nil }

// Changes calls fn with each change of a table after since, in feed order, until fn returns
// false. From the zero Checkpoint it lists every entity and deletion record; from any
// other it first checks that since comes from this store's history of this table
// (ErrCheckpointOtherStore, ErrTableReplaced) and that no deletion the reader needs was
// forgotten (ErrCheckpointExpired: the reader must reconcile). Each change's Checkpoint
// carries since.Synced forward, or from the start the store's clock.
func (tx *Tx) Changes(table string, since Checkpoint, fn func(c Change) bool) error {
	if tx.store.opts.NoChangeFeed {
		return ErrNoChangeFeed
	}
	t, err := tx.Table(table)
	if err != nil {
		return err
	}
	id := stored.TableID(table)
	store, err := tx.StoreID()
	if err != nil {
		return err
	}
	if since.IsZero() {
		if since.Synced, err = tx.clock(); err != nil {
			return err
		}
	} else if err := tx.checkCheckpoint(id, store, t.Incarnation, since); err != nil {
		return err
	}
	since.Store, since.Table = store, t.Incarnation
	es := &feedCursor{tx: tx, index: changeIndex, prefix: stored.TableEntities(id), decode: true, pos: since}
	ds := &feedCursor{tx: tx, index: deletionIndex, prefix: stored.TableDeletions(id), pos: since}
	for {
		e, err := es.peek()
		if err != nil {
			return err
		}
		d, err := ds.peek()
		if err != nil {
			return err
		}
		var c *Change
		switch {
		case e == nil && d == nil:
			return nil
		case e == nil || d != nil && d.Before(e.Checkpoint):
			c = ds.take()
		default:
			c = es.take()
		}
		if !fn(*c) {
			return nil
		}
	}
}

// CaughtUp returns the checkpoint of a reader that, in this transaction, read a change feed
// after at to its end: at, issued by this store, with Synced at the store's clock, since
// every deletion not yet committed will take a later Timestamp.
func (tx *Tx) CaughtUp(at Checkpoint) (Checkpoint, error) {
	store, err := tx.StoreID()
	if err != nil {
		return at, err
	}
	clock, err := tx.clock()
	if err != nil {
		return at, err
	}
	at.Store, at.Synced = store, clock
	return at, nil
}

// feedCursor reads one index of the feed (entities or deletion records) for one table,
// a chunk at a time, each chunk resuming where the last one ended, so that every record
// after the start is read once.
type feedCursor struct {
	tx            *Tx
	index, prefix string
	decode        bool
	pos           Checkpoint // where the next chunk starts
	buf           []Change
	done          bool // the last chunk reached the end of the index
}

// peek returns the next change of the cursor without taking it; nil at the end.
func (c *feedCursor) peek() (*Change, error) {
	if len(c.buf) == 0 && !c.done {
		buf, err := c.tx.feedChunk(c.index, c.prefix, c.pos, c.decode)
		if err != nil {
			return nil, err
		}
		c.buf, c.done = buf, len(buf) < changeChunk
		if len(buf) > 0 {
			c.pos = buf[len(buf)-1].Checkpoint
		}
	}
	if len(c.buf) == 0 {
		return nil, nil
	}
	return &c.buf[0], nil
}

// take removes and returns the change peek returned.
func (c *feedCursor) take() *Change {
	ch := &c.buf[0]
	c.buf = c.buf[1:]
	return ch
}

// feedChunk reads up to changeChunk records after pos from an index in Timestamp order,
// keeping those whose key starts with prefix (one table's); entities are decoded when
// decode is set, else the records are deletions.
func (tx *Tx) feedChunk(index, prefix string, pos Checkpoint, decode bool) ([]Change, error) {
	var out []Change
	var derr error
	if err := tx.store.need(prefix, prefix+"\xff"); err != nil {
		return nil, err // the index orders every table's records: the table's must all be here
	}
	pivot := encodeStamp(pos.Timestamp)
	err := tx.btx.AscendGreaterOrEqual(index, pivot, func(k, v string) bool {
		if len(k) <= len(prefix) || k[:len(prefix)] != prefix {
			return true
		}
		pk, rk := stored.SplitEntityKey(k, len(prefix))
		c := Change{Checkpoint: Checkpoint{Store: pos.Store, Table: pos.Table, Timestamp: stampOf(v), PartitionKey: pk, RowKey: rk, Synced: pos.Synced}}
		if !pos.Before(c.Checkpoint) {
			return true
		}
		if decode {
			if c.Entity, derr = stored.DecodeEntity(pk, rk, v); derr != nil {
				return false
			}
		}
		out = append(out, c)
		return len(out) < changeChunk
	})
	return out, orErr(err, derr)
}

// createIndexes creates the in-memory indexes of the change feed, before the store loads:
// deletion records by Timestamp (which their purge reads too) and, with feed, entities.
func createIndexes(db *buntdb.DB, feed bool) error {
	if feed {
		if err := db.CreateIndex(changeIndex, stored.EntityPrefix+"*", lessStamp); err != nil {
			return err
		}
	}
	return db.CreateIndex(deletionIndex, stored.DeletionPrefix+"*", lessStamp)
}
