package core

import (
	"encoding/binary"
	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/core/stored"
	"strconv"
)

// Deletion records. While Options.DeletionRetention is positive, deleting an entity leaves
// a record of its keys and the deletion's Timestamp (d\0{table}\0{pk}\0{rk}), and deleting
// a table leaves one of the table (d\0{table}), which voids every checkpoint before it.
// Records live outside the entity key space, so no query, Get Entity or Query Tables ever
// sees them. Writing the entity again removes its record; a record older than the
// retention is purged, at the latest when the next deletion is recorded.

// deletionIndex is the buntdb index of deletion records in Timestamp order.
const deletionIndex = "deletions"

// horizonKey holds the latest Timestamp of a purged deletion record: a checkpoint at or
// before it may have missed a deletion.
const horizonKey = stored.MetaPrefix + "deletion-horizon"

// purgePerDeletion is how many expired records recording a deletion purges along with it,
// so expired records never pile up while deletions go on.
const purgePerDeletion = 8

// encodeStamp returns the stored form of a deletion record: like an entity's, a version
// byte then the uvarint Timestamp, so one index order serves both (see stampOf).
func encodeStamp(ts model.DateTime) string {
	b := make([]byte, 1, 1+binary.MaxVarintLen64)
	b[0] = stored.Version
	return string(binary.AppendUvarint(b, uint64(ts)))
}

// stampOf returns the Timestamp at the head of a stored entity or deletion record, 0 for
// a record too short to hold one (or holding no valid uvarint there). It reads the uvarint
// in place, as binary.Uvarint would read it: it runs in every comparison of the change
// feed's indexes (lessStamp), a dozen or more per write, under the write lock. The
// Timestamps a store issues (from the year 229 on) take nine bytes, which it reads at
// once (stamp9); it reads others byte by byte.
func stampOf(v string) model.DateTime {
	if len(v) > 9 {
		if ts, ok := stamp9(v); ok {
			return ts
		}
	}
	var x uint64
	var s uint
	for i := 1; i < len(v) && i <= binary.MaxVarintLen64; i++ {
		b := v[i]
		if b < 0x80 {
			if i == binary.MaxVarintLen64 && b > 1 {
				return 0 // overflows 64 bits
			}
			return model.DateTime(x | uint64(b)<<s)
		}
		x |= uint64(b&0x7f) << s
		s += 7
	}
	return 0
}

// stamp9 reads a uvarint of exactly nine bytes at v[1:10] (len(v) > 9): eight bytes with
// the continuation bit, then one without. It loads the eight in one word and joins their
// seven-bit groups in three steps, pairs into 14 bits, then 28, then 56; ok is false for
// a uvarint of another length.
func stamp9(v string) (ts model.DateTime, ok bool) {
	const cont = 0x8080808080808080
	x := uint64(v[1]) | uint64(v[2])<<8 | uint64(v[3])<<16 | uint64(v[4])<<24 |
		uint64(v[5])<<32 | uint64(v[6])<<40 | uint64(v[7])<<48 | uint64(v[8])<<56
	if x&cont != cont || v[9] >= 0x80 {
		return 0, false
	}
	x &^= cont
	x = x&0x00ff00ff00ff00ff | x&0xff00ff00ff00ff00>>1
	x = x&0x0000ffff0000ffff | x&0xffff0000ffff0000>>2
	x = x&0x00000000ffffffff | x&0xffffffff00000000>>4
	return model.DateTime(x | uint64(v[9])<<56), true
}

// lessStamp orders stored records by Timestamp; buntdb breaks ties by key.
func lessStamp(a, b string) bool { return stampOf(a) < stampOf(b) }

// recordDeletion records that entity (pk, rk) of table id was deleted by this transaction.
func (tx *Tx) recordDeletion(id, pk, rk string) error {
	if tx.store.opts.DeletionRetention <= 0 {
		return nil
	}
	ts, err := tx.timestamp()
	if err != nil {
		return err
	}
	if err := tx.set(stored.DeletionKey(id, pk, rk), encodeStamp(ts)); err != nil {
		return err
	}
	_, err = tx.purgeDeletions(purgePerDeletion)
	return err
}

// supersedeDeletion removes the deletion record of entity (pk, rk), which is written again.
func (tx *Tx) supersedeDeletion(id, pk, rk string) error {
	if f, ok := tx.known(id); ok && f.noDeletions {
		return nil
	}
	key := stored.DeletionKey(id, pk, rk)
	if _, ok, err := tx.get(key); err != nil || !ok {
		return err
	}
	return tx.del(key)
}

// recordTableDeletion replaces the deletion records of table id's entities by one of the
// table, which voids every checkpoint before it.
func (tx *Tx) recordTableDeletion(id string) error {
	if err := tx.deletePrefix(stored.TableDeletions(id)); err != nil {
		return err
	}
	if tx.store.opts.DeletionRetention <= 0 {
		return nil
	}
	ts, err := tx.timestamp()
	if err != nil {
		return err
	}
	if err := tx.set(stored.TableDeletionKey(id), encodeStamp(ts)); err != nil {
		return err
	}
	_, err = tx.purgeDeletions(purgePerDeletion)
	return err
}

// purgeDeletions removes up to limit deletion records older than the retention (limit < 0:
// all), oldest first, and moves the horizon up to the newest one removed.
func (tx *Tx) purgeDeletions(limit int) (int, error) {
	cutoff := tx.store.retentionCutoff()
	var keys []string
	var newest model.DateTime
	if err := tx.store.need(stored.DeletionPrefix, "d\x01"); err != nil {
		return 0, err // the index orders every table's deletion records
	}
	err := tx.btx.Ascend(deletionIndex, func(k, v string) bool {
		ts := stampOf(v)
		if ts >= cutoff || len(keys) == limit {
			return false
		}
		keys, newest = append(keys, k), ts
		return true
	})
	if err != nil || len(keys) == 0 {
		return 0, err
	}
	for _, k := range keys {
		if err := tx.del(k); err != nil {
			return 0, err
		}
	}
	if h, err := tx.horizon(); err != nil || h >= newest {
		return len(keys), err
	}
	return len(keys), tx.set(horizonKey, strconv.FormatInt(int64(newest), 10))
}

// horizon returns the latest Timestamp of a purged deletion record, 0 if none was purged.
func (tx *Tx) horizon() (model.DateTime, error) {
	v, ok, err := tx.get(horizonKey)
	if err != nil || !ok {
		return 0, err
	}
	return decodeClock(v), nil
}

// retentionCutoff is the Timestamp before which deletion records are expired now.
func (s *Store) retentionCutoff() model.DateTime {
	return model.DateTimeOf(s.opts.Now().Add(-s.opts.DeletionRetention))
}

// clock returns the last Timestamp the store issued: every later write takes a later one.
func (tx *Tx) clock() (model.DateTime, error) {
	v, _, err := tx.get(clockKey)
	return decodeClock(v), err
}

// PurgeDeletions removes every deletion record older than Options.DeletionRetention (all
// of them when it is zero) and returns how many it removed. Recording a deletion purges a
// few expired records already; hosts may call this from time to time as well.
//
// With nothing expired it returns after a read: no write transaction, no commit (hosts
// call it as a store opens, where the write path would otherwise run, and at the edge be
// compiled, before any request needs it).
func (s *Store) PurgeDeletions() (n int, err error) {
	if expired, err := s.deletionsExpired(); err != nil || !expired {
		return 0, err
	}
	err = s.Update(func(tx *Tx) error {
		n, err = tx.purgeDeletions(-1)
		return err
	})
	return n, err
}

// deletionsExpired reports whether the oldest deletion record is older than the retention.
func (s *Store) deletionsExpired() (expired bool, err error) {
	err = s.View(func(tx *Tx) error {
		cutoff := s.retentionCutoff()
		if err := s.need(stored.DeletionPrefix, "d\x01"); err != nil {
			return err
		}
		return tx.btx.Ascend(deletionIndex, func(_, v string) bool {
			expired = stampOf(v) < cutoff
			return false
		})
	})
	return expired, err
}
