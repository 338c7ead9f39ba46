package core

import (
	"bytes"
	"errors"
	"fmt"
	"github.com/tabletopdb/tabletop/core/stored"
	"io"

	"github.com/tidwall/buntdb"
)

// ErrPartialIndexes means a partial store (Options.Partial) was opened with
// Options.Indexes: they are declared on every table as the store opens, which reads every
// table; declare them with Tx.CreateIndex instead.
var ErrPartialIndexes = errors.New("a partial store declares its indexes with CreateIndex")

// LoadRange makes the key range [lo, hi) of a partial store resident. sets are the range's
// records as the host keeps them: the pages covering it (SaveRange's output), optionally
// followed by change sets committed after those pages were written, in commit order. Of
// their commands, those whose keys lie in [lo, hi) and are not resident yet are applied,
// in order, then the commands ApplyChangeSet deferred for those keys; the others are
// skipped, so the host may hand whole change sets and overlapping pages. A range already
// resident is left as it is: its keys took every change set since.
//
// The rule that keeps a loaded range at the same point of the log as the rest of the
// store: the pages must hold every change set before the first one this store applied
// with ApplyChangeSet since it opened (or committed itself), and no change set it has not
// applied yet.
//
// The store's clock and the secondary indexes declared in the range are restored from
// it. A malformed set loads nothing. On a store that is not partial every range is
// resident and LoadRange changes nothing.
func (s *Store) LoadRange(lo, hi string, sets ...[]byte) error {
	if s.resident == nil || lo >= hi {
		return nil
	}
	s.commitMu.Lock()
	defer s.commitMu.Unlock()
	size := 0
	for _, cs := range sets {
		size += len(cs)
	}
	cmds := make([]byte, 0, size) // at most every command given: grown by append, it was copied again and again
	for _, cs := range sets {
		err := stored.EachCommand(cs, func(cmd []byte, key string) error {
			if key >= lo && key < hi && !s.resident.contains(key) {
				cmds = append(cmds, cmd...)
			}
			return nil
		})
		if err != nil {
			return fmt.Errorf("load key range: %w", err)
		}
	}
	var undeferred []string
	for key, cmd := range s.resident.deferred {
		if key >= lo && key < hi && !s.resident.contains(key) {
			cmds, undeferred = append(cmds, cmd...), append(undeferred, key)
		}
	}
	if len(cmds) == 0 {
		s.resident.add(lo, hi) // no record: the clock and the indexes stay as they are
		return nil
	}
	if err := s.loadCommands(cmds); err != nil {
		return fmt.Errorf("load key range: %w", err)
	}
	s.resident.add(lo, hi)
	for _, key := range undeferred {
		delete(s.resident.deferred, key)
	}
	if err := s.restoreClock(); err != nil {
		return fmt.Errorf("load key range: %w", err)
	}
	if err := s.restoreIndexes(); err != nil {
		return fmt.Errorf("load key range: restore indexes: %w", err)
	}
	return nil
}

// SaveRange writes the records of the key range [lo, hi) to w as buntdb commands, in key
// order: a page of the store that LoadRange reads back. It fails with ErrNeedRange if the
// range is not all resident.
func (s *Store) SaveRange(lo, hi string, w io.Writer) error {
	return s.View(func(tx *Tx) error {
		if err := s.need(lo, hi); err != nil {
			return err
		}
		var buf []byte
		var werr error
		err := tx.ascend(lo, hi, func(k, v string) bool {
			buf = stored.AppendCommand(buf[:0], "set", k, v)
			_, werr = w.Write(buf)
			return werr == nil
		})
		return errors.Join(err, werr)
	})
}

// loadCommands applies commands to the index as buntdb loads a file; an empty list is
// still checked against a closed store.
func (s *Store) loadCommands(cmds []byte) error {
	if err := mapClosed(s.db.View(func(*buntdb.Tx) error { return nil })); err != nil {
		return err // Load reports a closed store as invalid
	}
	s.forgetFacts() // the commands may write any record
	s.loads.Add(1)  // odd: no point map or scan image is read or built meanwhile (derived)
	defer s.loads.Add(1)
	return mapClosed(s.db.Load(bytesReader(cmds)))
}

// residentCommands keeps the commands of cs whose keys are resident, and defers the
// others for LoadRange; the whole change set on a store that is not partial. A malformed
// change set defers nothing. commitMu is held.
func (s *Store) residentCommands(cs []byte) ([]byte, error) {
	if s.resident == nil {
		return cs, nil
	}
	var out []byte
	var deferred []deferredCommand
	err := stored.EachCommand(cs, func(cmd []byte, key string) error {
		if s.resident.contains(key) {
			out = append(out, cmd...)
		} else {
			deferred = append(deferred, deferredCommand{key, cmd})
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	for _, d := range deferred {
		s.resident.deferred[d.key] = bytes.Clone(d.cmd)
	}
	return out, nil
}

// deferredCommand is a command of a change set whose key is not resident.
type deferredCommand struct {
	key string
	cmd []byte
}
