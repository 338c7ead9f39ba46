package outbox

import (
	"bytes"
	"fmt"
	"io"

	"github.com/tabletopdb/tabletop/core"
)

// Kind says what a Record holds.
type Kind uint8

const (
	// ChangeSet is one committed change set, to append to the log.
	ChangeSet Kind = 1
	// Snapshot is the whole store after every ChangeSet before it: it replaces the stored
	// snapshot and the log before it.
	Snapshot Kind = 2
)

// Record is one thing the host must make durable.
type Record struct {
	Kind Kind
	Data []byte
}

// Backend is a core.Backend whose Append and Compact queue Records for the host.
type Backend struct {
	snapshot   []byte
	changeSets [][]byte
	out        []Record
}

var _ core.Backend = (*Backend)(nil)

// New returns a backend that loads snapshot (nil for none) and then changeSets, in order.
func New(snapshot []byte, changeSets [][]byte) *Backend {
	return &Backend{snapshot: snapshot, changeSets: changeSets}
}

// Load replays what New was given, once; the backend forgets it afterwards.
func (b *Backend) Load(snapshot func(r io.Reader) error, changeSet func(cs []byte) error) error {
	snap, sets := b.snapshot, b.changeSets
	b.snapshot, b.changeSets = nil, nil
	if len(snap) > 0 {
		if err := snapshot(bytes.NewReader(snap)); err != nil {
			return fmt.Errorf("load snapshot: %w", err)
		}
	}
	for i, cs := range sets {
		if err := changeSet(cs); err != nil {
			return fmt.Errorf("load change set %d: %w", i, err)
		}
	}
	return nil
}

// Append queues a copy of one committed change set.
func (b *Backend) Append(cs []byte) error {
	b.out = append(b.out, Record{Kind: ChangeSet, Data: bytes.Clone(cs)})
	return nil
}

// Compact queues a snapshot of the whole store, which save writes.
func (b *Backend) Compact(save func(w io.Writer) error) error {
	var buf bytes.Buffer
	if err := save(&buf); err != nil {
		return fmt.Errorf("save snapshot: %w", err)
	}
	b.out = append(b.out, Record{Kind: Snapshot, Data: buf.Bytes()})
	return nil
}

// Take returns the queued records in the order they were produced and forgets them.
func (b *Backend) Take() []Record {
	out := b.out
	b.out = nil
	return out
}

// Close does nothing: records not yet taken can still be taken.
func (b *Backend) Close() error { return nil }
