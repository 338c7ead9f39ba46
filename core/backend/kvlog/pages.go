package kvlog

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/stored"
)

// PageBytes is about the size of one snapshot chunk: Compact cuts the snapshot, which
// lists the store's records in key order, into chunks of at least PageBytes (a record is
// never cut), so that a partial store loads the few a call needs.
const PageBytes = 64 << 10

// dirPrefix is the key prefix of a snapshot's directory: "dir/{gen}" lists the first key
// of each of its chunks.
const dirPrefix = "dir/"

// Partial makes Load hand the store no snapshot, only the log, and LoadRange load the
// snapshot's chunks a call needs: for a store opened with core.Options.Partial, which then
// starts by reading the head, the snapshot's directory and the log alone. It returns b.
func (b *Backend) Partial() *Backend {
	b.partial = true
	return b
}

// LoadRange makes [lo, hi) resident in store, a partial store this backend loaded: it
// reads the snapshot chunks whose keys overlap the range and hands them to
// store.LoadRange, with the range they cover. The log's commands for the range were
// handed at Load (the store deferred them). A chunk missing or that does not parse is
// damage (a *DamageError), and nothing is loaded.
func (b *Backend) LoadRange(store *core.Store, lo, hi string) error {
	if len(b.firstKeys) == 0 {
		return store.LoadRange("", core.KeySpaceEnd) // no snapshot: only the log's commands
	}
	first, last := b.pagesOf(lo, hi)
	sets := make([][]byte, 0, last-first)
	for i := first; i < last; i++ {
		key := chunkKey(b.head.gen, i)
		page, err := b.kv.Get(key)
		if err != nil {
			return fmt.Errorf("read snapshot chunk: %w", err)
		}
		if page == nil {
			return &DamageError{Key: key, Problem: fmt.Sprintf("missing, though the head names %d snapshot chunks", b.head.chunks)}
		}
		if err := stored.EachCommand(page, func([]byte, string) error { return nil }); err != nil {
			return &DamageError{Key: key, Problem: "a snapshot chunk that does not replay", Err: err}
		}
		sets = append(sets, page)
	}
	end := core.KeySpaceEnd
	if last < len(b.firstKeys) {
		end = b.firstKeys[last]
	}
	return store.LoadRange(b.firstKeys[first], end, sets...)
}

// pagesOf returns the chunks [first, last) whose key ranges overlap [lo, hi): chunk i
// holds the keys from firstKeys[i] up to the next chunk's first key.
func (b *Backend) pagesOf(lo, hi string) (first, last int) {
	for first+1 < len(b.firstKeys) && b.firstKeys[first+1] <= lo {
		first++
	}
	last = first + 1
	for last < len(b.firstKeys) && b.firstKeys[last] < hi {
		last++
	}
	return first, last
}

// LogBytes returns the bytes of change sets in the log after the snapshot: a host that
// compacts a partial store itself (core compacts only a store it holds whole) compares
// them with SnapshotBytes.
func (b *Backend) LogBytes() int64 { return b.logBytes }

// SnapshotBytes returns the bytes of the snapshot the log follows.
func (b *Backend) SnapshotBytes() int64 { return b.snapBytes }

// readDirectory reads the first keys of the snapshot's chunks. A snapshot of one chunk
// written before chunks had a directory holds every key from the first.
func (b *Backend) readDirectory() error {
	key := dirKey(b.head.gen)
	raw, err := b.kv.Get(key)
	if err != nil {
		return fmt.Errorf("read snapshot directory: %w", err)
	}
	if raw == nil && b.head.chunks == 1 {
		b.firstKeys = []string{""}
		return nil
	}
	keys, ok := decodeDirectory(raw)
	if !ok || len(keys) != b.head.chunks || keys[0] != "" {
		return &DamageError{Key: key, Problem: fmt.Sprintf("not a directory of the head's %d snapshot chunks", b.head.chunks)}
	}
	b.firstKeys = keys
	return nil
}

// cutPages cuts a snapshot into chunks of at least PageBytes at command boundaries and
// returns them with the first key of each (the first chunk's is "": it holds every key
// from the start of the key space).
func cutPages(snapshot []byte) (pages [][]byte, firstKeys []string, err error) {
	firstKeys = []string{""}
	start, at := 0, 0
	err = stored.EachCommand(snapshot, func(cmd []byte, key string) error {
		if at-start >= PageBytes {
			pages = append(pages, snapshot[start:at])
			firstKeys = append(firstKeys, key)
			start = at
		}
		at += len(cmd)
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	return append(pages, snapshot[start:at]), firstKeys, nil
}

// encodeDirectory writes the chunks' first keys, each after its length as a uvarint.
func encodeDirectory(keys []string) []byte {
	var b []byte
	for _, k := range keys {
		b = binary.AppendUvarint(b, uint64(len(k)))
		b = append(b, k...)
	}
	return b
}

// decodeDirectory reads what encodeDirectory wrote; ok is false for anything else.
func decodeDirectory(b []byte) (keys []string, ok bool) {
	for len(b) > 0 {
		n, w := binary.Uvarint(b)
		if w <= 0 || n > uint64(len(b)-w) {
			return nil, false
		}
		keys = append(keys, string(b[w:w+int(n)]))
		b = b[w+int(n):]
	}
	return keys, len(keys) > 0
}

// dirKey is "dir/{gen}", gen in 16 hex digits.
func dirKey(gen uint64) string {
	return string(appendHex(append(make([]byte, 0, 20), dirPrefix...), gen, 16))
}

// Run calls fn, and each time fn fails with core.ErrNeedRange loads the range it names
// (LoadRange) and calls it again, until it succeeds or fails otherwise. fn must change
// nothing when it fails so, as the store's own calls do not.
func (b *Backend) Run(store *core.Store, fn func() error) error {
	var last *core.NeedRangeError
	for {
		err := fn()
		var need *core.NeedRangeError
		if !errors.As(err, &need) {
			return err
		}
		if last != nil && *need == *last {
			return fmt.Errorf("loaded the range and still: %w", err) // a range LoadRange did not make resident
		}
		if err := b.LoadRange(store, need.Lo, need.Hi); err != nil {
			return err
		}
		last = need
	}
}
