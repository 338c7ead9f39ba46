package core

import "github.com/tidwall/buntdb"

// EvictRange drops the key range [lo, hi) of a partial store (Options.Partial) from
// memory, so that the store's memory follows what its host uses now rather than what it
// ever loaded: the range's records leave the index, and a call that needs them fails with
// ErrNeedRange again, for the host to load them with LoadRange. Nothing is written: the
// host's pages and log must hold every change set the store has applied (in the browser,
// no write of the tab is in flight). On a store that is not partial it does nothing.
//
// One call drops at most most records (0: no limit), so that a host can spread a large
// range over several calls (in the browser, over several tasks of the page). When it
// stops early it has dropped [lo, rest), answers rest, the first key it kept, and
// [rest, hi) stays resident and whole; it answers "" once it dropped the range to hi.
func (s *Store) EvictRange(lo, hi string, most int) (rest string, err error) {
	if s.resident == nil || lo >= hi {
		return "", nil
	}
	s.commitMu.Lock()
	defer s.commitMu.Unlock()
	err = s.db.Update(func(btx *buntdb.Tx) error {
		var keys []string
		err := btx.AscendRange("", lo, hi, func(k, _ string) bool {
			if most > 0 && len(keys) == most {
				rest = k
				return false
			}
			keys = append(keys, k)
			return true
		})
		if err != nil {
			return err
		}
		// Not resident first, under the write lock: a reader checks residence and reads in
		// one read transaction, so it sees the range whole or asks for it.
		if rest != "" {
			s.resident.remove(lo, rest)
		} else {
			s.resident.remove(lo, hi)
		}
		for _, k := range keys {
			if _, err := btx.Delete(k); err != nil {
				return err
			}
		}
		return nil
	})
	s.forgetFacts()
	if err != nil {
		return "", mapClosed(err)
	}
	return rest, nil
}
