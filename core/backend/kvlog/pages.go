package kvlog

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"sort"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/stored"
)

// PageBytes is about the size of one page: a compaction cuts the store's records, in key
// order, into pages of at least PageBytes (a record is never cut), and cuts a page again
// once it has grown past twice that. A point read after a start loads one page: the
// smaller the page, the sooner it answers; the more pages, the longer the directory every
// start reads.
const PageBytes = 16 << 10

// page is one entry of the directory: the first key of a page's range (the range runs to
// the next page's first key; the first page's is "") and the id its key is named by.
type page struct {
	first string
	id    uint64
}

// Partial makes Load hand the store no snapshot, only the log, and LoadRange load the
// pages a call needs: for a store opened with core.Options.Partial, which then starts by
// reading the head, the directory and the log alone. CompactPages then compacts it,
// rewriting only the pages the log touched. It returns b.
func (b *Backend) Partial() *Backend {
	b.partial = true
	return b
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
		if last != nil && need.Lo == last.Lo && need.Hi == last.Hi {
			return fmt.Errorf("loaded the range and still: %w", err) // a range LoadRange did not make resident
		}
		if err := b.LoadRange(store, need.Lo, need.Hi); err != nil {
			return err
		}
		last = need
	}
}

// LoadRange makes [lo, hi) resident in store, a partial store this backend loaded: it
// reads the pages whose ranges overlap the parts of it not resident yet and hands them to
// store.LoadRange with the ranges they cover. The log's commands were handed at Load (the
// store deferred those of keys not resident). A page missing or that does not parse is
// damage (a *DamageError), and nothing of it is loaded.
func (b *Backend) LoadRange(store *core.Store, lo, hi string) error {
	for {
		mlo, mhi, ok := store.Missing(lo, hi)
		if !ok {
			return nil
		}
		if len(b.dir) == 0 {
			// No pages: the log's commands, deferred, are all, and few (the host compacts
			// once they pass what it allows). All at once: no range is cut into keys.
			return store.LoadRange("", core.KeySpaceEnd)
		}
		first, last := b.pagesOf(mlo, mhi)
		sets := make([][]byte, 0, last-first)
		for _, p := range b.dir[first:last] {
			data, err := b.readPage(p)
			if err != nil {
				return err
			}
			sets = append(sets, data)
		}
		if err := store.LoadRange(b.dir[first].first, b.rangeEnd(last), sets...); err != nil {
			return b.damaged(b.dir[first:last], sets, err)
		}
		lo = b.rangeEnd(last)
	}
}

// damaged returns the damage of the first of pages (read as sets) that does not parse,
// err if none: a page is parsed only as it is loaded.
func (b *Backend) damaged(pages []page, sets [][]byte, err error) error {
	for i, data := range sets {
		if perr := stored.EachCommand(data, func([]byte, string) error { return nil }); perr != nil {
			return &DamageError{Key: b.keyOf(pages[i]), Problem: "a page that does not replay", Err: perr}
		}
	}
	return err
}

// keyOf names a page's storage: its key, or a legacy snapshot's prefix.
func (b *Backend) keyOf(p page) string {
	if b.legacy {
		return snapPrefix(b.head.gen)
	}
	return pageKey(p.id)
}

// pageOf returns the index of the page whose range holds key.
func (b *Backend) pageOf(key string) int {
	return max(sort.Search(len(b.dir), func(i int) bool { return b.dir[i].first > key })-1, 0)
}

// pagesOf returns the pages [first, last) of the directory whose ranges overlap [lo, hi).
func (b *Backend) pagesOf(lo, hi string) (first, last int) {
	first = b.pageOf(lo)
	last = first + 1
	for last < len(b.dir) && b.dir[last].first < hi {
		last++
	}
	return first, last
}

// rangeEnd is where the range of the pages before page i ends.
func (b *Backend) rangeEnd(i int) string {
	if i < len(b.dir) {
		return b.dir[i].first
	}
	return core.KeySpaceEnd
}

// readPage reads a page; a missing one is damage. A legacy snapshot is read whole.
func (b *Backend) readPage(p page) ([]byte, error) {
	if b.legacy {
		var buf bytes.Buffer
		if err := b.readLegacy(&buf); err != nil {
			return nil, err
		}
		return buf.Bytes(), nil
	}
	key := pageKey(p.id)
	data, err := b.kv.Get(key)
	if err != nil {
		return nil, fmt.Errorf("read page: %w", err)
	}
	if data == nil {
		return nil, &DamageError{Key: key, Problem: "missing, though the directory of pages lists it"}
	}
	return data, nil
}

// readDirectory reads the directory of pages the head names. A store whose snapshot was
// written before pages (snap/{gen}/…, no directory) is one legacy page.
func (b *Backend) readDirectory() error {
	raw, err := b.kv.Get(dirKey)
	if err != nil {
		return fmt.Errorf("read directory of pages: %w", err)
	}
	if raw == nil {
		b.dir, b.legacy = []page{{}}, true
		return nil
	}
	dir, next, ok := decodeDirectory(raw)
	if !ok || len(dir) != b.head.chunks {
		return &DamageError{Key: dirKey, Problem: fmt.Sprintf("not a directory of the head's %d pages", b.head.chunks)}
	}
	b.dir, b.nextID = dir, next
	return nil
}

// loadPages hands snapshot the pages in key order, back to back: the whole store.
func (b *Backend) loadPages(snapshot func(r io.Reader) error) error {
	sets := make([][]byte, 0, len(b.dir))
	readers := make([]io.Reader, 0, len(b.dir))
	for _, p := range b.dir {
		data, err := b.readPage(p)
		if err != nil {
			return err
		}
		sets, readers = append(sets, data), append(readers, bytes.NewReader(data))
	}
	if err := snapshot(io.MultiReader(readers...)); err != nil {
		return b.damaged(b.dir, sets, &DamageError{Key: dirKey, Problem: "pages that do not replay", Err: err})
	}
	return nil
}

// Empty reports whether the store holds nothing: Load found no head, and nothing was
// appended since.
func (b *Backend) Empty() bool { return b.head.nextSeq == 0 && b.head.chunks == 0 }

// LogBytes returns the bytes of change sets in the log: a host that compacts a partial
// store itself (CompactPages; core compacts only a store it holds whole) does so once
// they pass what it allows.
func (b *Backend) LogBytes() int64 { return b.logBytes }

// CompactPages compacts a partial store this backend loaded: each page a change set of
// the log touched is loaded, written anew from the store (cut in two or more once past
// twice PageBytes, dropped once empty), and the log deleted, in one KV commit; the
// other pages stay as they are. Its cost follows the pages the log touched, not the
// store. A store with no pages yet, or a legacy snapshot, is compacted whole (Compact).
func (b *Backend) CompactPages(store *core.Store) error {
	if b.head.nextSeq == b.head.firstSeq {
		return nil
	}
	if len(b.dir) == 0 || b.legacy {
		if err := b.LoadRange(store, "", core.KeySpaceEnd); err != nil {
			return err
		}
		return store.Compact()
	}
	touched, err := b.touchedPages()
	if err != nil {
		return err
	}
	var puts []Entry
	var deletes []string
	dir := make([]page, 0, len(b.dir))
	next := b.nextID
	for i, p := range b.dir {
		if !touched[i] {
			dir = append(dir, p)
			continue
		}
		lo, hi := p.first, b.rangeEnd(i+1)
		var buf bytes.Buffer
		err := b.LoadRange(store, lo, hi)
		if err == nil {
			err = store.SaveRange(lo, hi, &buf)
		}
		if err != nil {
			return fmt.Errorf("compact page %s: %w", pageKey(p.id), err)
		}
		parts, firsts := cutPages(buf.Bytes(), 2*PageBytes)
		if len(parts) == 0 {
			deletes = append(deletes, pageKey(p.id))
			continue
		}
		firsts[0] = lo
		for j, data := range parts {
			id := p.id
			if j > 0 {
				id, next = next, next+1
			}
			puts = append(puts, Entry{Key: pageKey(id), Value: data})
			dir = append(dir, page{first: firsts[j], id: id})
		}
	}
	if len(dir) > 0 {
		dir[0].first = "" // the first page holds every key from the start
	}
	return b.commitPages(puts, deletes, dir, next)
}

// touchedPages returns the indexes of the pages whose ranges hold a key of the log.
func (b *Backend) touchedPages() (map[int]bool, error) {
	touched := map[int]bool{}
	err := b.kv.Scan(logPrefix, func(key string, cs []byte) error {
		return stored.EachCommand(cs, func(_ []byte, k string) error {
			touched[b.pageOf(k)] = true
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("read log: %w", err)
	}
	return touched, nil
}

// commitPages writes the pages in puts and the directory dir, deletes the pages in
// deletes and the whole log, and starts the log anew after it, in one KV commit.
func (b *Backend) commitPages(puts []Entry, deletes []string, dir []page, nextID uint64) error {
	next := head{gen: b.head.gen + 1, chunks: len(dir), nextSeq: b.head.nextSeq, firstSeq: b.head.nextSeq}
	for seq := b.head.firstSeq; seq < b.head.nextSeq; seq++ {
		deletes = append(deletes, logKey(seq))
	}
	if len(dir) > 0 {
		puts = append(puts, Entry{Key: dirKey, Value: encodeDirectory(dir, nextID)})
	} else {
		deletes = append(deletes, dirKey)
	}
	puts = append(puts, Entry{Key: headKey, Value: next.encode()})
	if err := b.kv.Commit(puts, deletes); err != nil {
		return fmt.Errorf("commit pages: %w", err)
	}
	b.head, b.dir, b.nextID, b.legacy, b.logBytes = next, dir, nextID, false, 0
	return nil
}

// cutPages cuts records in key order into pages of at least PageBytes between records,
// once they pass most bytes (all of them at once below that), and returns the pages with
// the first key of each. No records give no page.
func cutPages(records []byte, most int) (pages [][]byte, firsts []string) {
	start, at := 0, 0
	_ = stored.EachCommand(records, func(cmd []byte, key string) error { // records the store wrote: they parse
		if at == start {
			firsts = append(firsts, key)
		} else if len(records) > most && at-start >= PageBytes && len(records)-at >= PageBytes {
			pages = append(pages, records[start:at])
			firsts = append(firsts, key)
			start = at
		}
		at += len(cmd)
		return nil
	})
	if at > start {
		pages = append(pages, records[start:at])
	}
	return pages, firsts
}

// encodeDirectory writes the next page id, then each page's id and first key, as
// uvarints (a key after its length).
func encodeDirectory(dir []page, nextID uint64) []byte {
	b := binary.AppendUvarint(nil, nextID)
	for _, p := range dir {
		b = binary.AppendUvarint(b, p.id)
		b = binary.AppendUvarint(b, uint64(len(p.first)))
		b = append(b, p.first...)
	}
	return b
}

// decodeDirectory reads what encodeDirectory wrote; ok is false for anything else,
// including a first page that does not start the key space or pages out of order.
func decodeDirectory(b []byte) (dir []page, nextID uint64, ok bool) {
	uvarint := func() (uint64, bool) {
		v, n := binary.Uvarint(b)
		b = b[max(n, 0):]
		return v, n > 0
	}
	if nextID, ok = uvarint(); !ok {
		return nil, 0, false
	}
	for len(b) > 0 {
		id, ok1 := uvarint()
		n, ok2 := uvarint()
		if !ok1 || !ok2 || n > uint64(len(b)) || id >= nextID {
			return nil, 0, false
		}
		p := page{first: string(b[:n]), id: id}
		if (len(dir) == 0 && p.first != "") || (len(dir) > 0 && p.first <= dir[len(dir)-1].first) {
			return nil, 0, false
		}
		dir, b = append(dir, p), b[n:]
	}
	return dir, nextID, true
}
