package main

import (
	"github.com/tabletopdb/tabletop/core"
)

// indexHandler returns the secondary index operation op (worker/rest/README.md,
// "Secondary indexes"), nil for none: table and property as arguments; listIndexes answers a JSON
// array of the indexed properties.
func indexHandler(op string) handler {
	switch op {
	case "createIndex":
		return func(s *store, a [][]byte) ([]byte, error) {
			return nil, s.db.Update(func(tx *core.Tx) error { return tx.CreateIndex(arg(a, 0), arg(a, 1)) })
		}
	case "dropIndex":
		return func(s *store, a [][]byte) ([]byte, error) {
			return nil, s.db.Update(func(tx *core.Tx) error { return tx.DropIndex(arg(a, 0), arg(a, 1)) })
		}
	case "listIndexes":
		return func(s *store, a [][]byte) ([]byte, error) { return s.listIndexes(arg(a, 0)) }
	}
	return nil
}

// listIndexes answers the properties table has indexes on, as a JSON array of strings.
func (s *store) listIndexes(table string) ([]byte, error) {
	var props []string
	err := s.db.View(func(tx *core.Tx) (err error) {
		props, err = tx.Indexes(table)
		return err
	})
	if err != nil {
		return nil, err
	}
	b := append(s.scratch[:0], '[')
	for i, p := range props {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(append(append(b, '"'), p...), '"') // property names are identifiers: nothing to escape
	}
	return append(b, ']'), nil
}
