package core

import (
	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/core/stored"
	"sync/atomic"
)

// A point map is a hash map of one table's entities, from key (after the table's prefix)
// to that key and stored form, all sharing the tree's strings: a read-only point read (Tx.Get,
// Tx.GetRecord) looks its entity up there instead of in buntdb's tree, where a lookup
// makes a score of string comparisons, each through two function values and a type
// switch, which weigh most in the browser. A table gets one on the
// pointAfter-th point read with no write to the table between. A write to a table with a
// map patches it in place: the transaction collects its writes (patchPoints) and, once it
// has committed and still under buntdb's write lock, sets or deletes their entries
// (patch) under mu held exclusively; a reader holds mu shared (points.read, which reads
// with no transaction) or buntdb's read lock (a read transaction) while it reads a map,
// and a transaction that rolls back leaves the map as it was. So a table that is read and
// written keeps its map, and its reads do not go back to the tree after every write.
// A map is built inside a read transaction, under its read lock, from the snapshot that
// transaction sees, and stamped with the store's loads stamp like a scan image; commands
// loaded outside a transaction (loadCommands) retire every map built before them. A map
// dropped (past the limit, or by a transaction of more than maxPointWrites writes) before
// it served as many reads as it waited for doubles the wait for the next. A build walks
// at most pointWalk entities for each read it waited for, so that its cost, and the
// stall of the read that makes it, stays in proportion to the reads before it: a larger
// table, or one past the limit, doubles the wait and is tried again after it. A table of
// more than maxPointEntries entities gets none: its build would stall the read making it,
// and every writer, for tenths of a second. Maps take
// at most Options.ScanImageBytes together (pointEntryBytes an entity), apart from the
// scan images'; a partial store keeps none.
const (
	pointAfter      = 64
	maxPointAfter   = 1 << 24
	pointWalk       = 16
	maxPointEntries = 1 << 16
	pointEntryBytes = 64 // three string headers and a map slot's share of the table
)

// pointRecord is an entity in a point map: its key after the table's prefix, from which
// a read takes its PartitionKey and RowKey (the strings it was asked for would otherwise
// flow into the record it answers, and so to the heap), and its stored form.
type pointRecord struct{ keys, data string }

// pointMap is one table's point map, from key (after the table's prefix) to entity.
type pointMap map[string]pointRecord

// size is the memory the map holds, counted against Options.ScanImageBytes.
func (m *pointMap) size() int { return pointEntryBytes * len(*m) }

// points holds a store's point maps and, for each table read, the count of its reads
// (see derived). A read served from a map holds mu shared and counts atomically, so that
// concurrent readers do not queue; a commit patches a map in place (patch).
type points struct {
	derived[*pointMap]
	closed bool // the store is closed: no map answers; guarded by mu
}

// newPoints returns the point maps of a store whose options allow limit bytes of them:
// none when limit is negative.
func newPoints(limit int, loads *atomic.Uint64) *points {
	c := &points{}
	if !c.init(limit, pointAfter, maxPointAfter, false, loads) {
		return nil
	}
	return c
}

// lookup counts a read-only point read of table id and returns the map to read it from,
// if one is current; otherwise whether this read is to build it, and the loads stamp to
// give it.
func (c *points) lookup(id []byte) (m pointMap, build bool, loads uint64) {
	loads, ok := c.stamp()
	if !ok {
		return nil, false, 0
	}
	p, build := c.derived.lookup(id, loads)
	if p != nil {
		m = *p
	}
	return m, build, loads
}

// read returns entity (pk, rk) of table when the table's point map is current and holds
// it, counting the read, without a transaction: a commit patches the map under mu before
// its Update returns, and a load of commands outside a transaction retires it before it
// starts (loads), so a read that finds one, holding mu shared, reads a state no older
// than the last write or load that returned before it began. Otherwise ok is false, and
// the read is made in a transaction (Tx.lookup), which counts it and builds the map when
// it is due.
func (c *points) read(table, pk, rk string) (rec stored.Record, ok bool) {
	if c == nil || c.built.Load() == 0 || model.ValidateTableName(table) != nil {
		return stored.Record{}, false
	}
	loads, ok := c.stamp()
	if !ok {
		return stored.Record{}, false
	}
	var room [64]byte
	id := stored.AppendTableID(room[:0], table)
	c.mu.RLock() // held while the map is read: a commit patches it (patch)
	defer c.mu.RUnlock()
	e := c.tables[string(id)]
	if c.closed || e == nil || e.v == nil || e.loads != loads {
		return stored.Record{}, false
	}
	if e.uses.Load() < int64(e.after) { // all drop asks; past it, readers write nothing shared here
		e.uses.Add(1)
	}
	return pointAt(*e.v, pk, rk)
}

// close drops every map: a closed store answers no read.
func (c *points) close() {
	if c == nil {
		return
	}
	c.mu.Lock()
	c.closed, c.tables, c.bytes = true, map[string]*derivedEntry[*pointMap]{}, 0
	c.live.Store(0)
	c.built.Store(0)
	c.mu.Unlock()
}

// maxPointWrites bounds the writes a transaction collects for point maps; past it, the
// maps of the tables it writes are dropped instead.
const maxPointWrites = 1024

// patchPoints records that the transaction set key to value, or deleted it: the write
// patches its table's point map at commit (patch), if the table has one; a write to a
// table with none starts the count of its reads again, and a write of the table's own
// record (created or deleted) forgets the table. Tx.wrote calls it once the write is
// made.
func (tx *Tx) patchPoints(key, value string, deleted bool) {
	c := tx.store.points
	if c == nil {
		return
	}
	c.wrote(key, func(id string) bool {
		if len(tx.pointWrites) >= maxPointWrites {
			return false
		}
		if tx.pointWrites == nil {
			tx.pointWrites = tx.pointWrite[:0]
		}
		tx.pointWrites = append(tx.pointWrites, newEntityWrite(id, key, value, deleted))
		return true
	})
}

// patch applies a committed transaction's writes to the point maps of their tables, in
// place, under mu held exclusively and buntdb's write lock (Store.commit): a reader holds
// one or the other while it reads a map. A map that would outgrow maxPointEntries, or
// take the maps past their limit, is dropped.
func (c *points) patch(ws []entityWrite) {
	if c == nil || len(ws) == 0 {
		return
	}
	c.mu.Lock()
	for _, w := range ws {
		e := c.tables[w.id]
		if e == nil || e.v == nil {
			continue
		}
		m := *e.v
		before := len(m)
		if w.deleted {
			delete(m, w.key)
		} else {
			m[w.key] = pointRecord{keys: w.key, data: w.value}
		}
		c.bytes += pointEntryBytes * (len(m) - before)
		if len(m) > maxPointEntries || c.bytes > c.limit {
			c.drop(e)
		}
	}
	c.mu.Unlock()
}

// tablePoints returns the point map of table id for a read-only transaction's point read,
// building it if this read is the one to, or nil to read the tree.
func (tx *Tx) tablePoints(id []byte) pointMap {
	c := tx.store.points
	m, build, loads := c.lookup(id)
	if build {
		m = c.build(tx, string(id), loads)
	}
	return m
}

// build builds the point map of table id inside tx, as lookup asked under the loads stamp
// loads, and installs it: it walks at most pointWalk entities for each read the table
// waited for, and returns nil, the build given up, past them.
func (c *points) build(tx *Tx, id string, loads uint64) pointMap {
	most := min(c.limit/pointEntryBytes, maxPointEntries)
	c.mu.Lock()
	if e := c.tables[id]; e != nil { // nil if the store closed meanwhile
		most = min(most, pointWalk*e.after)
	}
	c.mu.Unlock()
	m := buildPoints(tx, stored.TableEntities(id), most)
	var built *pointMap // nil: the build gave up
	if m != nil {
		built = &m
	}
	c.install(id, built, loads)
	return m
}

// buildPoints maps the entities of the table whose entity keys start with prefix,
// walking buntdb's tree inside tx's read lock, so that the map is the snapshot tx sees.
// It returns nil when the table has more than most entities.
func buildPoints(tx *Tx, prefix string, most int) pointMap {
	m := pointMap{}
	fits := true
	err := tx.btx.AscendGreaterOrEqual("", prefix, func(k, v string) bool {
		if len(k) < len(prefix) || k[:len(prefix)] != prefix {
			return false
		}
		if len(m) == most {
			fits = false
			return false
		}
		m[k[len(prefix):]] = pointRecord{keys: k[len(prefix):], data: v}
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
func (tx *Tx) lookupPoint(table, pk, rk string) (rec stored.Record, ok bool, err error) {
	if tx.store.points == nil || tx.writable {
		return stored.Record{}, false, nil
	}
	var room [64]byte
	id := stored.AppendTableID(room[:0], table)
	m := tx.tablePoints(id)
	if m == nil {
		return stored.Record{}, false, nil
	}
	if rec, found := pointAt(m, pk, rk); found {
		return rec, true, nil
	}
	return stored.Record{}, true, orErr(tx.hasTable(table), ErrEntityNotFound)
}

// pointAt returns entity (pk, rk) of the point map m, if it holds it.
func pointAt(m pointMap, pk, rk string) (stored.Record, bool) {
	var room [64]byte
	key := append(append(append(room[:0], pk...), stored.Sep...), rk...)
	p, ok := m[string(key)]
	if !ok {
		return stored.Record{}, false
	}
	pk, rk = stored.SplitEntityKey(p.keys, 0)
	return stored.RecordOf(pk, rk, p.data), true
}
