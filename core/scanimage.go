package core

import (
	"github.com/tabletopdb/tabletop/core/stored"
	"math"
	"sort"
	"strings"
)

// A scan image is a read-optimised copy of one table's entities: every key and stored
// form in key order, packed into one string. buntdb keeps each entity as a tree item
// holding a key and a value in two more allocations, so a scan of a table larger than
// the processor's cache waits on about three cache misses per entity; an image is read
// front to back, which the processor prefetches. A table's image is built by a read-only
// scan once the table has been scanned imageAfter times with no write to it between, by
// scans that have read about as many entities as the build walks (see images and
// imageWalkMin), and read by every later read-only scan; a write patches it
// (scanimage_patch.go).
type scanImage struct {
	data      string        // each entity's key, after the table's prefix, then its stored form
	offs      []uint32      // entity i's key is data[offs[2i]:offs[2i+1]], its form data[offs[2i+1]:offs[2i+2]]
	over      []entityWrite // the entities written since, in key order (scanimage_patch.go)
	overBytes int           // the memory of over
}

// size is the memory the image holds, counted against Options.ScanImageBytes.
func (m *scanImage) size() int { return len(m.data) + 4*len(m.offs) + m.overBytes }

// search returns the index of the first entity whose key is from or after it.
func (m *scanImage) search(from string) int {
	n := len(m.offs) / 2
	return sort.Search(n, func(i int) bool { return m.data[m.offs[2*i]:m.offs[2*i+1]] >= from })
}

// buildImage copies the entities of the table whose entity keys start with prefix into
// an image, walking buntdb's tree inside tx's read lock, so that the image is the
// snapshot tx sees. It returns nil when the image would take more than limit bytes, or
// nil and tooMany when the table has more than most entities.
func buildImage(tx *Tx, prefix string, limit, most int) (m *scanImage, tooMany bool) {
	limit = min(limit, math.MaxUint32)
	var b strings.Builder
	offs := []uint32{0}
	fits := true
	err := tx.btx.AscendGreaterOrEqual("", prefix, func(k, v string) bool {
		if len(k) < len(prefix) || k[:len(prefix)] != prefix {
			return false
		}
		if len(offs)/2 == most {
			tooMany, fits = true, false
			return false
		}
		if b.Len()+len(k)-len(prefix)+len(v)+4*(len(offs)+2) > limit {
			fits = false
			return false
		}
		b.WriteString(k[len(prefix):])
		offs = append(offs, uint32(b.Len()))
		b.WriteString(v)
		offs = append(offs, uint32(b.Len()))
		return true
	})
	if err != nil || !fits {
		return nil, tooMany && err == nil
	}
	return &scanImage{data: b.String(), offs: offs[:len(offs):len(offs)]}, false
}

// scanImage reads the scan's range from the image m, as add and flush read it from the
// tree: the entities from the range's start until its end, or until fn says to stop. It
// reads the packed entities between one patch and the next (scanimage_patch.go) with
// scanPacked, and each patch in its place, in place of the entity it rewrote or deleted.
func (s *recordScan) scanImage(m *scanImage, from string) {
	i, n := m.search(from), len(m.offs)/2
	for _, p := range m.over[searchPatches(m.over, from):] {
		at := m.search(p.key)
		if !s.scanPacked(m, i, at) {
			return
		}
		i = at
		if i < n && m.data[m.offs[2*i]:m.offs[2*i+1]] == p.key {
			i++
		}
		if p.deleted {
			continue
		}
		if s.bounded && p.key >= s.to || !s.emit(p.key, p.value) {
			return
		}
	}
	s.scanPacked(m, i, n)
}

// scanPacked reads the packed entities from index from up to index to (exclusive) and
// reports whether the scan goes on past them: the range and fn did not end it.
func (s *recordScan) scanPacked(m *scanImage, from, to int) bool {
	data, offs := m.data, m.offs[:2*to+1]
	for i := 2 * from; i+2 < len(offs); i += 2 {
		k := data[offs[i]:offs[i+1]]
		if s.bounded && k >= s.to || !s.emit(k, data[offs[i+1]:offs[i+2]]) {
			return false
		}
	}
	return true
}

// emit gives fn the entity of key k (after the table's prefix) and stored form v, and
// reports whether fn wants more.
func (s *recordScan) emit(k, v string) bool {
	if s.unsplit {
		s.rec = stored.UnsplitRecord(k, v)
	} else {
		pk, rk := stored.SplitEntityKey(k, 0)
		s.rec = stored.RecordOf(pk, rk, v)
	}
	if !s.fn(&s.rec) {
		s.stopped = true
		return false
	}
	return true
}

// image returns the image of table to scan it from, building it when this scan is the
// one to; nil to scan buntdb's tree. Only a read-only transaction reads or builds one: a
// write transaction may see writes it later rolls back.
func (tx *Tx) image(table, prefix string) *scanImage {
	c := tx.store.images
	if c == nil || tx.writable {
		return nil
	}
	loads, ok := c.stamp()
	if !ok {
		return nil
	}
	var room [64]byte
	id := stored.AppendTableID(room[:0], table)
	m, build := c.lookup(id, loads)
	if build {
		most := c.walk(string(id))
		var tooMany bool
		if m, tooMany = buildImage(tx, prefix, c.limit, most); tooMany {
			c.outgrew(string(id), most)
		} else {
			c.install(string(id), m, loads)
		}
	}
	return m
}

// tookFromTree notes that a read-only scan of table read n entities from buntdb's tree,
// for its image's build (images.walk).
func (tx *Tx) tookFromTree(table string, n int) {
	if c := tx.store.images; c != nil && !tx.writable && n > 0 {
		var room [64]byte
		c.took(stored.AppendTableID(room[:0], table), n)
	}
}
