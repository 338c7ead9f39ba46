package core

import (
	"github.com/tabletopdb/tabletop/core/stored"
	"strings"
)

// tableFacts is what an entity write needs to know of its table besides the entity: that
// the table exists and whether it holds deletion records.
// Each is one B-tree lookup under the write lock; the store keeps them per table between
// writes (Store.facts) so that a stream of writes to the same table looks them up once.
//
// The facts are dropped whenever a write could make one of them wrong: any write of a
// table record or a deletion record (Tx.wrote), and any
// change set loaded as it stands (Store.loadCommands). A transaction that rolls back after
// dropping them has only made the next write look them up again; one that rolls back after
// finding them leaves them true, since it found them before writing anything.
type tableFacts struct {
	id          string // the table's id (stored.TableID), kept so as not to fold the name again
	noDeletions bool   // no deletion record of an entity of the table: an insert supersedes none
}

// useTable returns ErrTableNotFound unless the table exists, as hasTable does, and
// otherwise its id, making the table's facts known to tx for the writes that follow
// (Tx.known). The store keeps the facts by the name as given, so that a name in upper
// case is not folded again. A partial store looks everything up each time: each key must
// be checked to be resident. It must be called before the transaction writes anything:
// facts found after a write that the transaction may roll back would outlive it.
func (tx *Tx) useTable(name string) (id string, err error) {
	s := tx.store
	if s.resident != nil {
		return stored.TableID(name), tx.hasTable(name)
	}
	if f, ok := s.facts[name]; ok {
		tx.factsID, tx.facts = f.id, f
		return f.id, nil
	}
	if err := tx.hasTable(name); err != nil {
		return "", err
	}
	f, err := tx.findFacts(stored.TableID(name))
	if err != nil {
		return "", err
	}
	if s.facts == nil {
		s.facts = make(map[string]tableFacts)
	}
	s.facts[name] = f
	tx.factsID, tx.facts = f.id, f
	return f.id, nil
}

// findFacts looks up the facts of table id.
func (tx *Tx) findFacts(id string) (tableFacts, error) {
	prefix := stored.TableDeletions(id)
	found := false
	err := tx.btx.AscendGreaterOrEqual("", prefix, func(k, _ string) bool {
		found = strings.HasPrefix(k, prefix)
		return false
	})
	return tableFacts{id: id, noDeletions: !found}, err
}

// known returns the facts of table id if tx knows them (see useTable).
func (tx *Tx) known(id string) (tableFacts, bool) {
	if tx.factsID == "" || tx.factsID != id {
		return tableFacts{}, false
	}
	return tx.facts, true
}

// dropFacts drops the table facts that a write of key could make wrong (see tableFacts).
func (tx *Tx) dropFacts(key string) {
	if strings.HasPrefix(key, stored.TablePrefix) || strings.HasPrefix(key, stored.DeletionPrefix) {
		tx.store.forgetFacts()
		tx.factsID = ""
	}
}

// forgetFacts drops every table's facts; commitMu is held.
func (s *Store) forgetFacts() { clear(s.facts) }
