// Package memory is a core.Backend that keeps the snapshot and change log in process
// memory: nothing survives the process, but a store reopened on the same backend finds
// everything committed. Tests use it, and its KV can inject faults.
package memory

import (
	"sort"
	"strings"
	"sync"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/backend/kvlog"
)

// New returns an empty in-memory backend.
func New() *kvlog.Backend { return kvlog.New(NewKV()) }

// KV is an in-memory, transactional kvlog.KV.
type KV struct {
	mu   sync.Mutex
	data map[string][]byte
	// FailCommit, when set, is called before each commit; a non-nil result fails the
	// commit with nothing applied.
	FailCommit func(puts []kvlog.Entry, deletes []string) error
}

var (
	_ kvlog.KV     = (*KV)(nil)
	_ core.Backend = (*kvlog.Backend)(nil)
)

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
