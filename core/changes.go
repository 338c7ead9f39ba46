package core

// The change feed of a table lists its entities and the deletion records of its entities
// (see recordDeletion) in the order (Timestamp, PartitionKey, RowKey). Every write
// transaction takes a Timestamp later than every one before it, so a write committed while
// a reader pages through the feed lands after the reader's position: resuming after the
// last change seen never skips a change nor repeats one, whatever is written meanwhile.
// An entity written again leaves its old position and appears at its new one.

// changeIndex is the buntdb index of entities in Timestamp order.
const changeIndex = "changes"

// changeChunk is how many changes of each kind the feed reads at a time before merging.
const changeChunk = 128

// Checkpoint is a position in a table's change feed: the Timestamp and keys of the last
// change a reader has seen. The zero Checkpoint is the start of the feed.
type Checkpoint struct {
	Timestamp    DateTime
	PartitionKey string
	RowKey       string
}

// IsZero reports whether c is the start of the feed.
func (c Checkpoint) IsZero() bool { return c == Checkpoint{} }

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
	Entity *Entity
}

// Deleted reports whether the change is the deletion of the entity at its keys.
func (c Change) Deleted() bool { return c.Entity == nil }

// Changes calls fn with each change of a table after since, in feed order, until fn returns
// false. From the zero Checkpoint it lists every entity and deletion record; from any
// other it first checks that no deletion after since was forgotten, else it returns
// ErrCheckpointExpired and the reader must reconcile (see ErrCheckpointExpired).
func (tx *Tx) Changes(table string, since Checkpoint, fn func(c Change) bool) error {
	if _, err := tx.Table(table); err != nil {
		return err
	}
	id := tableID(table)
	if !since.IsZero() {
		if err := tx.checkCheckpoint(id, since); err != nil {
			return err
		}
	}
	pos := since
	for {
		es, err := tx.feedChunk(changeIndex, tableEntities(id), pos, true)
		if err != nil {
			return err
		}
		ds, err := tx.feedChunk(deletionIndex, tableDeletions(id), pos, false)
		if err != nil {
			return err
		}
		bound, more := chunkBound(es, ds)
		for _, c := range mergeChanges(es, ds) {
			if more && bound.Before(c.Checkpoint) {
				break
			}
			if !fn(c) {
				return nil
			}
		}
		if !more {
			return nil
		}
		pos = bound
	}
}

// chunkBound returns the last position up to which two chunks, each read up to
// changeChunk changes after the same position, together hold every change; more is false
// when neither chunk is full, so they hold every change to the end of the feed.
func chunkBound(es, ds []Change) (bound Checkpoint, more bool) {
	for _, cs := range [][]Change{es, ds} {
		if len(cs) < changeChunk {
			continue
		}
		last := cs[len(cs)-1].Checkpoint
		if !more || last.Before(bound) {
			bound = last
		}
		more = true
	}
	return bound, more
}

// mergeChanges merges two lists in feed order into one.
func mergeChanges(a, b []Change) []Change {
	out := make([]Change, 0, len(a)+len(b))
	for len(a) > 0 && len(b) > 0 {
		if b[0].Before(a[0].Checkpoint) {
			out, b = append(out, b[0]), b[1:]
		} else {
			out, a = append(out, a[0]), a[1:]
		}
	}
	return append(append(out, a...), b...)
}

// feedChunk reads up to changeChunk records after pos from an index in Timestamp order,
// keeping those whose key starts with prefix (one table's); entities are decoded when
// decode is set, else the records are deletions.
func (tx *Tx) feedChunk(index, prefix string, pos Checkpoint, decode bool) ([]Change, error) {
	var out []Change
	var derr error
	pivot := encodeStamp(pos.Timestamp)
	err := tx.btx.AscendGreaterOrEqual(index, pivot, func(k, v string) bool {
		if len(k) <= len(prefix) || k[:len(prefix)] != prefix {
			return true
		}
		pk, rk := splitEntityKey(k, len(prefix))
		c := Change{Checkpoint: Checkpoint{Timestamp: stampOf(v), PartitionKey: pk, RowKey: rk}}
		if !pos.Before(c.Checkpoint) {
			return true
		}
		if decode {
			if c.Entity, derr = decodeEntity(pk, rk, v); derr != nil {
				return false
			}
		}
		out = append(out, c)
		return len(out) < changeChunk
	})
	return out, orErr(err, derr)
}
