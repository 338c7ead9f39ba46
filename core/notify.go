package core

import (
	"sync"
	"sync/atomic"
)

// Waiting for writes. A host that holds a reader's request open until something changes
// (the change feed's long-poll) waits on Changed; every write that commits closes the
// channel once it is durable. Closing never blocks, so a waiter that went away or reads
// slowly cannot hold up a writer, and a store nobody waits on pays one atomic load per
// write.
type notifier struct {
	mu sync.Mutex
	ch atomic.Pointer[chan struct{}] // the waiters' channel; nil while nobody waits
}

// Changed returns a channel that is closed once a write that commits after the call is
// durable. Ask for it before reading what the write would change, so that no write falls
// between the read and the wait.
func (s *Store) Changed() <-chan struct{} {
	n := &s.notify
	if ch := n.ch.Load(); ch != nil {
		return *ch
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if ch := n.ch.Load(); ch != nil {
		return *ch
	}
	ch := make(chan struct{})
	n.ch.Store(&ch)
	return ch
}

// noteWrite wakes the waiters of Changed: a write is durable.
func (s *Store) noteWrite() {
	n := &s.notify
	if n.ch.Load() == nil {
		return
	}
	n.mu.Lock()
	ch := n.ch.Swap(nil)
	n.mu.Unlock()
	if ch != nil {
		close(*ch)
	}
}
