package core

import "sort"

// A write to a table with an image patches the image rather than dropping it: the image
// keeps the entities written since it was built in a short sorted list beside its packed
// entities (scanImage.over), which a scan merges in key order (recordScan.scanImage). A write transaction
// collects its patches (Tx.patches) as it writes, and Store.commit applies them inside
// the transaction once it has committed, still under buntdb's write lock: a transaction
// that rolls back leaves the images as they were, and no reader sees a table between a
// write and its patch. Past maxPatches patches, the image is dropped instead.
const maxPatches = 128

// patchImage records that the transaction set key to value, or deleted it: the write is a
// patch of its table's image, if the table has one; a write to a table with none starts
// the count of its scans again, and a write of the table's own record (created or
// deleted) forgets the table. Tx.wrote calls it once the write is made.
func (tx *Tx) patchImage(key, value string, deleted bool) {
	c := tx.store.images
	if c == nil {
		return
	}
	c.wrote(key, func(id string) bool {
		if len(tx.patches) >= maxPatches {
			return false
		}
		tx.patches = append(tx.patches, newEntityWrite(id, key, value, deleted))
		return true
	})
}

// patch applies a committed transaction's patches to the images of their tables, each
// in turn; an image that would hold more than maxPatches, or take the images past their
// limit, is dropped.
func (c *images) patch(ps []entityWrite) {
	if len(ps) == 0 {
		return
	}
	c.mu.Lock()
	for _, p := range ps {
		e := c.tables[p.id]
		if e == nil || e.v == nil {
			continue
		}
		m := e.v.with(p)
		c.bytes += m.size() - e.v.size()
		e.v = m
		if len(m.over) > maxPatches || c.bytes > c.limit {
			c.drop(e)
		}
	}
	c.mu.Unlock()
}

// with returns a copy of the image with the patch p in its list, in key order, in place
// of an earlier patch of the same entity.
func (m *scanImage) with(p entityWrite) *scanImage {
	p.id = ""
	i := searchPatches(m.over, p.key)
	over := make([]entityWrite, 0, len(m.over)+1)
	over = append(append(over, m.over[:i]...), p)
	n := *m
	n.overBytes += patchSize(p)
	if i < len(m.over) && m.over[i].key == p.key {
		n.overBytes -= patchSize(m.over[i])
		i++
	}
	n.over = append(over, m.over[i:]...)
	return &n
}

// patchSize is the memory a patch holds, counted against Options.ScanImageBytes.
func patchSize(p entityWrite) int { return len(p.key) + len(p.value) + 48 }

// searchPatches returns the index of the first patch whose key is from or after it.
func searchPatches(over []entityWrite, from string) int {
	return sort.Search(len(over), func(i int) bool { return over[i].key >= from })
}
