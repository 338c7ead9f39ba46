package main

import "strconv"

// Every browser tab keeps its own replica of a persistent store (web/src/store.js); these
// operations keep it up to date with the change sets the other tabs commit.

// apply applies change sets other tabs committed, in order (args: the change sets). It
// answers nothing, and leaves no records: they are durable already.
func (s *store) apply(args [][]byte) ([]byte, error) {
	for _, cs := range args {
		if err := s.db.ApplyChangeSet(cs); err != nil {
			return nil, err
		}
	}
	return nil, nil
}

// compacted tells the store that another tab wrote a snapshot of args[0] bytes covering
// every change set it has applied.
func (s *store) compacted(args [][]byte) ([]byte, error) {
	n, err := strconv.ParseInt(arg(args, 0), 10, 64)
	if err != nil || n < 0 {
		return nil, ErrSizeInvalid
	}
	s.db.Compacted(n)
	return nil, nil
}
