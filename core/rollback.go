package core

import (
	"fmt"

	"github.com/tidwall/buntdb"
)

// With a GroupCommitter backend a commit is applied in memory before its change set is
// durable, so that readers never wait for the disk. Until it is durable, the store keeps
// how to undo it: should the backend fail to make it durable (an I/O error, or a full
// disk where space cannot be reserved ahead), every commit not durable is undone, newest
// first, the backend drops their change sets (GroupCommitter.Discard), and writing
// resumes from the durable state.

// undoWrite puts one key back as it was before a write: prev if it existed, else absent.
type undoWrite struct {
	key, prev string
	existed   bool
}

// unsyncedCommit is a commit written to the backend and not yet known durable.
type unsyncedCommit struct {
	seq   uint64
	undo  []undoWrite
	bytes int64 // its change set's size
}

// keepUndo records a commit's undo until its change set is durable, forgetting those of
// the commits already durable; commitMu and buntdb's write lock are held.
func (s *Store) keepUndo(seq uint64, tx *Tx) {
	durable := s.durable.Load()
	i := 0
	for i < len(s.unsynced) && s.unsynced[i].seq <= durable {
		i++
	}
	s.unsynced = append(s.unsynced[:copy(s.unsynced, s.unsynced[i:])], unsyncedCommit{seq: seq, undo: tx.undo, bytes: int64(len(tx.log))})
}

// noteDurable records that every change set up to seq is durable.
func (s *Store) noteDurable(seq uint64) {
	for {
		d := s.durable.Load()
		if d >= seq || s.durable.CompareAndSwap(d, seq) {
			return
		}
	}
}

// recoverLocked returns the store to what its backend holds durably after a failed
// Write or Sync: once no commit waits for its sync, the backend drops what is not
// durable and the store undoes those commits. If the backend cannot drop them, the store
// accepts no more writes. commitMu is held.
func (s *Store) recoverLocked() {
	s.syncing.Wait()
	durable, failed, err := s.group.Discard()
	if !failed {
		return
	}
	if rerr := s.rollback(durable); rerr != nil {
		err = fmt.Errorf("undo writes that did not reach the disk: %w", rerr)
	}
	if err != nil {
		s.syncErr = err
	}
}

// rollback undoes, newest first, every commit after durable; commitMu is held.
func (s *Store) rollback(durable uint64) error {
	var undone []unsyncedCommit
	for _, c := range s.unsynced {
		if c.seq > durable {
			undone = append(undone, c)
		}
	}
	s.unsynced = s.unsynced[:0]
	s.durable.Store(durable)
	s.forgetFacts()
	return mapClosed(s.db.Update(func(btx *buntdb.Tx) error {
		tx := &Tx{store: s, btx: btx, writable: true}
		for i := len(undone) - 1; i >= 0; i-- {
			if err := tx.undoWrites(undone[i].undo); err != nil {
				return err
			}
			s.logBytes -= undone[i].bytes
		}
		s.hasID = false // the store's identity may have been among the writes undone
		s.patchDerived(tx)
		return nil
	}))
}

// undoWrites puts back, last first, the keys of one commit's writes.
func (tx *Tx) undoWrites(undo []undoWrite) error {
	for i := len(undo) - 1; i >= 0; i-- {
		u := undo[i]
		var err error
		if u.existed {
			err = tx.set(u.key, u.prev)
		} else {
			err = tx.del(u.key)
		}
		if err != nil {
			return err
		}
	}
	return nil
}
