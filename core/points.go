package core

import (
	"sync"
	"sync/atomic"
)

// A point map is a hash map of one table's entities, from key (after the table's prefix)
// to stored form, both sharing the tree's strings: a read-only point read (Tx.Get,
// Tx.GetRecord) looks its entity up there instead of in buntdb's tree, where a lookup
// makes a score of string comparisons, each through two function values and a type
// switch (a third of a point read's time in the browser). A table gets one on the
// pointAfter-th point read with no write to the table between; any write to the table
// drops it (Tx.wrote, under buntdb's write lock, so no reader holds the map meanwhile).
// A map is built inside a read transaction, under its read lock, from the snapshot that
// transaction sees, and stamped with points.loads like a scan image; commands loaded
// outside a transaction (loadCommands) retire every map built before them. A map dropped
// before it served as many reads as it waited for doubles the wait for the next, up to
// maxPointAfter, so that a table written every few reads does not pay for maps it hardly
// reads. Maps take at most Options.ScanImageBytes together (pointEntryBytes an entity),
// apart from the scan images'; a partial store keeps none.
const (
	pointAfter      = 64
	maxPointAfter   = 64 * pointAfter
	pointEntryBytes = 48 // two string headers and a map slot's share of the table
)

// points holds a store's point maps and, for each table read, the count of its reads.
type points struct {
	limit int           // the most bytes the maps may take together
	loads atomic.Uint64 // odd while commands are loaded outside a transaction
	live  atomic.Int32  // len(tables): a write to a store with none takes no lock

	mu     sync.Mutex
	bytes  int // the maps' sizes, summed
	tables map[string]*pointEntry
}

// pointEntry is one table's point map and the count of its reads.
type pointEntry struct {
	m        map[string]string // nil until built
	loads    uint64            // points.loads when m was built
	reads    int               // the reads served from m; with none, those since the table's last write
	after    int               // the reads with no write between that build the next map
	building bool              // a read is building the map
}

// newPoints returns the point maps of a store whose options allow limit bytes of them:
// none when limit is negative.
func newPoints(limit int) *points {
	if limit < 0 {
		return nil
	}
	if limit == 0 {
		limit = DefaultScanImageBytes
	}
	return &points{limit: limit, tables: map[string]*pointEntry{}}
}

// lookup counts a read-only point read of table id and returns the map to read it from,
// if one is current; otherwise whether this read is to build it, and the loads stamp to
// give it.
func (c *points) lookup(id []byte) (m map[string]string, build bool, loads uint64) {
	loads = c.loads.Load()
	if loads%2 == 1 {
		return nil, false, 0
	}
	c.mu.Lock()
	e := c.tables[string(id)]
	if e == nil {
		e = &pointEntry{after: pointAfter}
		c.tables[string(id)] = e
		c.live.Store(int32(len(c.tables)))
	}
	if e.m != nil && e.loads != loads {
		c.drop(e)
	}
	if e.m == nil {
		build = e.reads+1 >= e.after && !e.building
		e.building = e.building || build
	}
	e.reads++
	m = e.m
	c.mu.Unlock()
	return m, build, loads
}

// install ends the build lookup asked for: m, nil when the table outgrew the limit,
// becomes the table's map if the maps' sum stays within it; otherwise the table is read
// from the tree for maxPointAfter reads before it is tried again.
func (c *points) install(id string, m map[string]string, loads uint64) {
	c.mu.Lock()
	switch e := c.tables[id]; {
	case e == nil:
	case m == nil || c.bytes+pointEntryBytes*len(m) > c.limit:
		e.building, e.reads, e.after = false, 0, maxPointAfter
	default:
		e.building, e.reads, e.m, e.loads = false, 0, m, loads
		c.bytes += pointEntryBytes * len(m)
	}
	c.mu.Unlock()
}

// drop forgets e's map, if any, and starts counting the reads to the next: it takes
// twice as many as the map waited for when it served fewer than that, else pointAfter.
func (c *points) drop(e *pointEntry) {
	if e.m != nil {
		c.bytes -= pointEntryBytes * len(e.m)
		e.m = nil
		if e.reads < e.after {
			e.after = min(2*e.after, maxPointAfter)
		} else {
			e.after = pointAfter
		}
	}
	e.reads = 0
}

// load runs fn, which loads commands into the index outside a transaction, so that no
// map built before it is read after it.
func (c *points) load(fn func() error) error {
	if c == nil {
		return fn()
	}
	c.loads.Add(1)
	defer c.loads.Add(1)
	return fn()
}

// dropPoints drops the point map of the table the transaction wrote key in, and counts
// its reads again; a write of the table's own record (created or deleted) forgets the
// table. Tx.wrote calls it once the write is made.
func (tx *Tx) dropPoints(key string) {
	c := tx.store.points
	if c == nil || c.live.Load() == 0 {
		return
	}
	id, ok := keyTable(key)
	if !ok {
		return
	}
	c.mu.Lock()
	if e := c.tables[id]; e != nil {
		c.drop(e)
		if key[0] == tablePrefix[0] {
			delete(c.tables, id)
			c.live.Store(int32(len(c.tables)))
		}
	}
	c.mu.Unlock()
}

// pointMap returns the point map of table id for a read-only transaction's point read,
// building it if this read is the one to, or nil to read the tree.
func (tx *Tx) pointMap(id []byte) map[string]string {
	c := tx.store.points
	m, build, loads := c.lookup(id)
	if !build {
		return m
	}
	m = buildPoints(tx, tableEntities(string(id)), c.limit)
	c.install(string(id), m, loads)
	return m
}

// buildPoints maps the entities of the table whose entity keys start with prefix,
// walking buntdb's tree inside tx's read lock, so that the map is the snapshot tx sees.
// It returns nil when the map would take more than limit bytes.
func buildPoints(tx *Tx, prefix string, limit int) map[string]string {
	m := map[string]string{}
	fits := true
	err := tx.btx.AscendGreaterOrEqual("", prefix, func(k, v string) bool {
		if len(k) < len(prefix) || k[:len(prefix)] != prefix {
			return false
		}
		if pointEntryBytes*(len(m)+1) > limit {
			fits = false
			return false
		}
		m[k[len(prefix):]] = v
		return true
	})
	if err != nil || !fits {
		return nil
	}
	return m
}

// lookupPoint is lookup from the table's point map, where ok; it is not when the table
// has none for this read. table must be a valid name. It allocates nothing: the keys it
// looks up are made on the stack.
func (tx *Tx) lookupPoint(table, pk, rk string) (rec Record, ok bool, err error) {
	if tx.store.points == nil || tx.writable {
		return Record{}, false, nil
	}
	var idRoom, keyRoom [64]byte
	id := appendLower(idRoom[:0], table)
	m := tx.pointMap(id)
	if m == nil {
		return Record{}, false, nil
	}
	key := append(append(append(keyRoom[:0], pk...), sep...), rk...)
	v, found := m[string(key)]
	if !found {
		return Record{}, true, orErr(tx.hasTable(table), ErrEntityNotFound)
	}
	return Record{PartitionKey: pk, RowKey: rk, data: v}, true, nil
}

// appendLower appends s with its ASCII capitals made small, as tableID makes a valid
// table name's id.
func appendLower(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		b = append(b, c)
	}
	return b
}
