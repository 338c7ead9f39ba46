package core

import (
	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/core/stored"
	"strconv"
)

// One table's change feed across several stores: a host that moves a key range of a table
// to another store, records and Timestamps as they were (RawSet, AdvanceClock), must let
// a reader's checkpoint, issued by the old store while it served the range, resume in the
// new one. Checkpoint checks compare the store's identity, its clock, its deletion horizon
// and the table's deletion record (checkCheckpoint), so the new store adopts those of the
// old one with AdoptFeed. Stores that adopted a feed share its identity: they are parts of
// one table's feed.

// FeedState is what a store's checkpoints of one table are checked against: the store's
// identity and clock, its deletion horizon, and the Timestamp of the table's last deletion
// (0 if it never was deleted).
type FeedState struct {
	Store        model.Guid
	Clock        model.DateTime
	Horizon      model.DateTime
	TableDeleted model.DateTime
}

// FeedState returns the state of this store's change feed of table, to hand to AdoptFeed.
func (tx *Tx) FeedState(table string) (FeedState, error) {
	var f FeedState
	var err error
	if f.Store, err = tx.StoreID(); err != nil {
		return f, err
	}
	if f.Clock, err = tx.clock(); err != nil {
		return f, err
	}
	if f.Horizon, err = tx.horizon(); err != nil {
		return f, err
	}
	v, _, err := tx.get(stored.TableDeletionKey(stored.TableID(table)))
	f.TableDeleted = stampOf(v)
	return f, err
}

// AdoptFeed makes this store continue the change feed of table whose state is f: it
// takes f's identity, and its clock, horizon and table deletion where they are later than
// its own, so every checkpoint f's store issued is checked here as it would be there, and
// every later write here takes a Timestamp after all of them.
func (tx *Tx) AdoptFeed(table string, f FeedState) error {
	if f.Store == (model.Guid{}) {
		return nil // the old store never wrote, so it issued no checkpoint
	}
	if err := tx.set(storeIDKey, string(f.Store[:])); err != nil {
		return err
	}
	if err := tx.AdvanceClock(f.Clock); err != nil {
		return err
	}
	h, err := tx.horizon()
	if err != nil {
		return err
	}
	if f.Horizon > h {
		if err := tx.set(horizonKey, strconv.FormatInt(int64(f.Horizon), 10)); err != nil {
			return err
		}
	}
	key := stored.TableDeletionKey(stored.TableID(table))
	v, _, err := tx.get(key)
	if err != nil || f.TableDeleted <= stampOf(v) {
		return err
	}
	return tx.set(key, encodeStamp(f.TableDeleted))
}
