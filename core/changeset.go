package core

import (
	"fmt"

	"github.com/tidwall/buntdb"
)

// ApplyChangeSet replays a change set that another replica of this store committed to the backend
// they share (another browser tab over the same IndexedDB database, say): it is applied to
// the index as if loaded, and neither handed to this store's backend nor logged again. The
// clock moves past every Timestamp the change set issued, so that this replica's next
// write gets a later one. The host must apply every replica's change sets in the order
// they were committed, and may apply one more than once.
//
// A partial store (Options.Partial) applies the commands of the keys that are resident
// and defers the others, keeping each such key's last command until LoadRange loads its
// range (so the host need not hand the log again with every page).
func (s *Store) ApplyChangeSet(cs []byte) error {
	s.commitMu.Lock()
	defer s.commitMu.Unlock()
	cmds, err := s.residentCommands(cs)
	if err != nil {
		return fmt.Errorf("apply change set: %w", err)
	}
	if err := s.loadCommands(cmds); err != nil {
		return fmt.Errorf("apply change set: %w", err)
	}
	if s.backend != nil {
		s.logBytes += int64(len(cs))
	}
	return s.restoreClock()
}

// Compacted records that another replica wrote a snapshot of size bytes covering every
// change set this store has applied, so that this store does not write one again before
// its log outgrows that snapshot.
func (s *Store) Compacted(size int64) {
	s.commitMu.Lock()
	defer s.commitMu.Unlock()
	s.snapBytes, s.logBytes = size, 0
}

// restoreClock moves the clock to the last Timestamp recorded in the index, if later.
func (s *Store) restoreClock() error {
	return mapClosed(s.db.Update(func(btx *buntdb.Tx) error {
		if v, err := btx.Get(clockKey); err == nil {
			s.clock = max(s.clock, decodeClock(v))
		}
		return nil
	}))
}
