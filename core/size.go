package core

import "github.com/tidwall/buntdb"

// How big a store is, for a host that decides when to split a table across stores.

// Records returns how many records the store holds: entities, deletion records and a few
// of the store's own. It takes constant time: a cheap measure of a store's size, which
// is what a host watches to decide when to split a table across stores.
func (s *Store) Records() (int, error) {
	var n int
	err := s.db.View(func(btx *buntdb.Tx) (err error) {
		n, err = btx.Len()
		return err
	})
	return n, mapClosed(err)
}

// Bytes returns the bytes of the store's keys and values, in time linear in its records:
// a measure of its size that, unlike Records, counts large entities for what they are.
func (s *Store) Bytes() (int, error) {
	n := 0
	err := s.View(func(tx *Tx) error {
		return tx.btx.Ascend("", func(k, v string) bool {
			n += len(k) + len(v)
			return true
		})
	})
	return n, err
}
