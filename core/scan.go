package core

import (
	"github.com/tabletopdb/tabletop/core/stored"
	"runtime"
)

// ScanRecords calls fn with each entity of a table within r as stored, in key order,
// until fn returns false, decoding nothing and allocating nothing per entity. fn is given
// the same *Record each time: copy the Record to keep it.
func (tx *Tx) ScanRecords(table string, r stored.KeyRange, fn func(rec *stored.Record) bool) error {
	return tx.scanRecords(table, r, false, fn)
}

// ScanRecordsUnsplit is ScanRecords for a scan that needs the keys of few of the records
// it reads, such as a filtered query's: the Record given to fn has an empty PartitionKey
// and RowKey until fn calls its SplitKeys method, so that a record fn passes over costs
// no search for where its PartitionKey ends.
func (tx *Tx) ScanRecordsUnsplit(table string, r stored.KeyRange, fn func(rec *stored.Record) bool) error {
	return tx.scanRecords(table, r, true, fn)
}

// scanRecords is ScanRecords, or ScanRecordsUnsplit when unsplit is set.
func (tx *Tx) scanRecords(table string, r stored.KeyRange, unsplit bool, fn func(rec *stored.Record) bool) error {
	if err := tx.hasTable(table); err != nil {
		return err
	}
	if r.Empty() {
		return nil
	}
	s := &recordScan{prefix: stored.TableEntities(stored.TableID(table)), to: string(r.To), bounded: r.To < stored.TableEnd, unsplit: unsplit, fn: fn, size: firstBatch}
	if m := tx.image(table, s.prefix); m != nil {
		s.scanImage(m, string(r.From))
		return nil
	}
	from := s.prefix + string(r.From)
	missing := s.stopAtAbsent(tx, from, s.prefix+string(r.To))
	if !s.done {
		if err := tx.btx.AscendGreaterOrEqual("", from, s.add); err != nil {
			return err
		}
	}
	if !s.done {
		s.flush()
	}
	tx.tookFromTree(table, s.taken)
	if s.stopped {
		return nil
	}
	return missing
}

// stopAtAbsent ends the scan of [from, to) where a partial store's first absent key range
// begins, as Tx.ascend does, and returns the *NeedRangeError to answer once the resident
// part is read (unless fn stopped first: a scan that stops early needs only what it read).
func (s *recordScan) stopAtAbsent(tx *Tx, from, to string) error {
	res := tx.store.resident
	if res == nil {
		return nil
	}
	lo, hi, ok := res.missing(from, to)
	if !ok {
		return nil
	}
	s.to, s.bounded = lo[len(s.prefix):], true
	s.done = lo <= from
	return &NeedRangeError{Lo: lo, Hi: hi}
}

// A scan takes entities from buntdb's tree in batches, then reads the batch: an entity's
// tree item, key and stored form are three separate places in memory, and reading the
// keys and records of a batch together lets the processor fetch them in parallel rather
// than one after another. A batch starts small, so a short read (a point, a few rows)
// takes little more than it needs from the tree, and doubles up to maxBatch.
const (
	firstBatch = 8
	maxBatch   = 64
)

// recordScan is one ScanRecords in progress.
type recordScan struct {
	prefix  string // the table's entity keys' prefix
	to      string // the range's end, after the prefix
	bounded bool   // the range ends before the table does
	unsplit bool   // leave each record's keys for fn to split (ScanRecordsUnsplit)
	fn      func(*stored.Record) bool
	rec     stored.Record
	batch   [maxBatch]struct{ k, v string }
	n, size int  // entities in batch; how many it takes before it is read
	taken   int  // entities of the range taken from the tree
	done    bool // the range or fn ended the scan
	stopped bool // fn ended the scan
}

// add takes the next entry of the tree and reports whether to go on.
func (s *recordScan) add(k, v string) bool {
	s.batch[s.n].k, s.batch[s.n].v = k, v
	s.n++
	if s.n < s.size {
		return true
	}
	s.flush()
	s.size = min(2*s.size, maxBatch)
	return !s.done
}

// flush reads the batch: first the head of every key and both ends of every record, which
// brings them into the cache together, then each entry in turn, until fn says to stop.
// The tree gives keys in order from the range's start, so the entries in the range are
// the batch's first ones: looking back from its last key finds where they end, after one
// comparison unless the batch crosses the range's end.
func (s *recordScan) flush() {
	batch := s.batch[:s.n]
	s.n = 0
	var touch byte
	for _, e := range batch {
		touch ^= e.k[0]
		if e.v != "" {
			touch ^= e.v[0] ^ e.v[len(e.v)-1] // a record often spans two cache lines
		}
	}
	runtime.KeepAlive(touch)
	for len(batch) > 0 && !s.within(batch[len(batch)-1].k) {
		batch = batch[:len(batch)-1]
		s.done = true
	}
	s.taken += len(batch)
	for _, e := range batch {
		if s.unsplit {
			s.rec = stored.UnsplitRecord(e.k[len(s.prefix):], e.v)
		} else {
			pk, rk := stored.SplitEntityKey(e.k, len(s.prefix))
			s.rec = stored.RecordOf(pk, rk, e.v)
		}
		if !s.fn(&s.rec) {
			s.done, s.stopped = true, true
			return
		}
	}
}

// within reports whether the key k, taken from the tree at or after the range's start,
// lies in the range.
func (s *recordScan) within(k string) bool {
	return len(k) >= len(s.prefix) && k[:len(s.prefix)] == s.prefix && (!s.bounded || k[len(s.prefix):] < s.to)
}
