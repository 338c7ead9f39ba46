// Package memory is a transactional kvlog.KV in process memory: kvlog.New(memory.NewKV())
// is a core.Backend whose snapshot and change log survive nothing but the process, so a
// store reopened on the same KV finds everything committed. Tests use it, and its
// FailCommit injects faults.
package memory

import (
	"sort"
	"strings"
	"sync"

	"github.com/tabletopdb/tabletop/core/backend/kvlog"
)

// KV is an in-memory, transactional kvlog.KV.
type KV struct {
	mu   sync.Mutex
	data map[string][]byte
	// FailCommit, when set, is called before each commit; a non-nil result fails the
	// commit with nothing applied.
	FailCommit func(puts []kvlog.Entry, deletes []string) error
}

var _ kvlog.KV = (*KV)(nil)

// NewKV returns an empty KV.
func NewKV() *KV { return &KV{data: map[string][]byte{}} }

// Get returns a copy of the value at key.
func (m *KV) Get(key string) ([]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if v, ok := m.data[key]; ok {
		return append([]byte(nil), v...), nil
	}
	return nil, nil
}

// Scan visits the keys with prefix in order.
func (m *KV) Scan(prefix string, fn func(key string, value []byte) error) error {
	m.mu.Lock()
	var keys []string
	for k := range m.data {
		if strings.HasPrefix(k, prefix) {
			keys = append(keys, k)
		}
	}
	m.mu.Unlock()
	sort.Strings(keys)
	for _, k := range keys {
		v, _ := m.Get(k)
		if err := fn(k, v); err != nil {
			return err
		}
	}
	return nil
}

// Commit applies puts and deletes atomically.
func (m *KV) Commit(puts []kvlog.Entry, deletes []string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.FailCommit != nil {
		if err := m.FailCommit(puts, deletes); err != nil {
			return err
		}
	}
	for _, k := range deletes {
		delete(m.data, k)
	}
	for _, e := range puts {
		m.data[e.Key] = append([]byte(nil), e.Value...)
	}
	return nil
}

// Size returns the total bytes of keys and values stored.
func (m *KV) Size() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	n := 0
	for k, v := range m.data {
		n += len(k) + len(v)
	}
	return n
}
