package kvlog

import (
	"bytes"
	"fmt"
	"io"

	"github.com/tabletopdb/tabletop/core"
)

// Entry is one key and value of a commit.
type Entry struct {
	Key   string
	Value []byte
}

// KV is the storage the backend writes to.
type KV interface {
	// Get returns the value at key, or nil if there is none.
	Get(key string) ([]byte, error)
	// Scan calls fn with each key and value whose key starts with prefix, in key order.
	Scan(prefix string, fn func(key string, value []byte) error) error
	// Commit applies puts and deletes atomically and durably. A value may be of any
	// size: a storage with a limit per value splits it itself.
	Commit(puts []Entry, deletes []string) error
}

// Backend is a core.Backend over a KV.
type Backend struct {
	kv   KV
	head head
	// partial: Load hands no snapshot, LoadRange loads its pages (see Partial).
	partial  bool
	dir      []page // the pages, in key order, once read
	nextID   uint64 // the id of the next page written
	legacy   bool   // the snapshot is one written before pages (snap/{gen}/…)
	logBytes int64  // the bytes of the log after the pages
}

var _ core.Backend = (*Backend)(nil)

// New returns a backend over kv.
func New(kv KV) *Backend { return &Backend{kv: kv} }

// Load replays the snapshot and the log after it. A store with no head has neither (every
// commit that writes a snapshot or a log key writes the head with it), so opening an empty
// store reads the head alone: one storage call, and at the edge none of the listing's code
// runs (under lazy wasm compilation, each function first run at a start is compiled then).
//
// Commits are atomic, so nothing is ever torn: a head that does not parse, a snapshot
// chunk or log record missing from what the head names, a record past it, or a record
// that does not replay is damage, and Load fails with a *DamageError naming the key,
// writing nothing.
func (b *Backend) Load(snapshot func(r io.Reader) error, changeSet func(cs []byte) error) error {
	raw, err := b.kv.Get(headKey)
	if err != nil {
		return fmt.Errorf("read head: %w", err)
	}
	if raw == nil {
		return nil
	}
	if b.head, err = parseHead(raw); err != nil {
		return &DamageError{Key: headKey, Problem: "it does not parse", Err: err}
	}
	if b.head.chunks > 0 {
		if err := b.readDirectory(); err != nil {
			return err
		}
		if !b.partial {
			if err := b.loadPages(snapshot); err != nil {
				return err
			}
		}
	}
	return b.replayLog(changeSet)
}

// replayLog calls changeSet with each log record the head names, in order, checking that
// none is missing and none follows.
func (b *Backend) replayLog(changeSet func(cs []byte) error) error {
	next := b.head.firstSeq
	err := b.kv.Scan(logPrefix, func(key string, value []byte) error {
		seq, ok := parseSeq(key)
		switch {
		case !ok:
			return &DamageError{Key: key, Problem: "a log key that names no sequence number"}
		case seq < b.head.firstSeq:
			return nil // before the snapshot: a compaction deletes it in the same commit
		case seq >= b.head.nextSeq:
			return &DamageError{Key: key, Problem: "a log record past the end the head names"}
		case seq != next:
			return b.missing(next)
		}
		next++
		b.logBytes += int64(len(value))
		if err := changeSet(value); err != nil {
			return &DamageError{Key: key, Problem: "a change set that does not replay", Err: err}
		}
		return nil
	})
	if err == nil && next != b.head.nextSeq {
		err = b.missing(next)
	}
	return err
}

// missing is the damage of a log record the head names and the storage lacks.
func (b *Backend) missing(seq uint64) error {
	return &DamageError{Key: logKey(seq), Problem: fmt.Sprintf("missing, though the head names log records %d to %d", b.head.firstSeq, b.head.nextSeq-1)}
}

// readLegacy writes to buf a snapshot written before pages: its chunks back to back.
func (b *Backend) readLegacy(buf *bytes.Buffer) error {
	n := 0
	err := b.kv.Scan(snapPrefix(b.head.gen), func(_ string, value []byte) error {
		buf.Write(value)
		n++
		return nil
	})
	if err != nil {
		return fmt.Errorf("read snapshot: %w", err)
	}
	if n != b.head.chunks {
		return &DamageError{Key: snapPrefix(b.head.gen), Problem: fmt.Sprintf("%d of the head's %d snapshot chunks present", n, b.head.chunks)}
	}
	return nil
}

// Append stores one change set under the next log key.
func (b *Backend) Append(cs []byte) error {
	next := b.head
	next.nextSeq++
	puts := []Entry{{Key: logKey(b.head.nextSeq), Value: cs}, {Key: headKey, Value: next.encode()}}
	if err := b.kv.Commit(puts, nil); err != nil {
		return fmt.Errorf("append change set: %w", err)
	}
	b.head = next
	b.logBytes += int64(len(cs))
	return nil
}

// Compact replaces the pages and the log with the snapshot save writes, cut into pages
// of about PageBytes (see Partial), in one KV commit.
func (b *Backend) Compact(save func(w io.Writer) error) error {
	var buf bytes.Buffer
	if err := save(&buf); err != nil {
		return fmt.Errorf("save snapshot: %w", err)
	}
	deletes, err := b.pageKeys()
	if err != nil {
		return err
	}
	parts, firsts := cutPages(buf.Bytes(), PageBytes)
	puts := make([]Entry, 0, len(parts)+2)
	dir := make([]page, len(parts))
	next := b.nextID
	for i, data := range parts {
		dir[i] = page{first: firsts[i], id: next}
		puts = append(puts, Entry{Key: pageKey(next), Value: data})
		next++
	}
	if len(dir) > 0 {
		dir[0].first = ""
	}
	return b.commitPages(puts, deletes, dir, next)
}

// pageKeys lists the keys of the pages (of a legacy snapshot, its chunks).
func (b *Backend) pageKeys() ([]string, error) {
	var keys []string
	if !b.legacy {
		for _, p := range b.dir {
			keys = append(keys, pageKey(p.id))
		}
		return keys, nil
	}
	err := b.kv.Scan(snapPrefix(b.head.gen), func(key string, _ []byte) error {
		keys = append(keys, key)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("list snapshot: %w", err)
	}
	return keys, nil
}

// Close does nothing: the KV belongs to the caller.
func (b *Backend) Close() error { return nil }
