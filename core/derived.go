package core

import (
	"github.com/tabletopdb/tabletop/core/stored"
	"strings"
	"sync"
	"sync/atomic"
)

// derived is the bookkeeping a store keeps for one kind of structure derived from a
// table's entities, one structure a table: its point maps (points.go) and its scan
// images (scanimage_cache.go). A table gets one on the first-th read-only use with no
// write to the table between (lookup asks that use to build it); one dropped before it
// served as many uses as it waited for doubles the wait for the next, up to most, so that
// a table written every few uses does not pay for structures it hardly reads, and one
// that served them resets it to first. The structures take at most limit bytes together
// (their sizes); a build that does not fit makes the table wait longer (retry). A kind
// may also bound a build by the work of the uses before it (work): a build given up past
// that bound makes the next wait for twice as much work (outgrew).
//
// Its consistency rests on buntdb's lock. Every write to a table drops the table's
// structure (wrote) or, when the kind takes the write (keep), patches it once the write
// transaction has committed, while it still holds buntdb's write lock: a scan image is
// replaced with a patched copy (scanimage_patch.go), a point map is changed in place
// under mu held exclusively (points.patch), which its readers without a transaction hold
// shared; a structure is built inside a read transaction, under its read lock, from
// the snapshot that transaction sees, and installed before that lock is released. So a
// read transaction never finds a structure that lacks a write it sees, nor one that
// holds a write it does not see, and a read that finds one with no transaction
// (points.read) reads a state no older than the last write that returned before it
// began. Commands loaded into the index outside a transaction (loadCommands) take no
// such lock: they keep the store's loads stamp odd meanwhile (Store.loads), so that
// no structure is looked up or built (stamp), and then move it past the stamp of every
// structure built before them, which lookup then drops.
//
// V is a pointer, so that Go compiles one copy of this code for both kinds (its shape
// is a pointer's, whatever it points to).
type derived[V sized] struct {
	limit     int            // the most bytes the structures may take together
	first     int            // the uses that build a table's first structure
	most      int            // the most uses a table waits for one
	retryMost bool           // a build that does not fit waits most uses, not twice as many
	loads     *atomic.Uint64 // the store's: odd while commands are loaded outside a transaction
	live      atomic.Int32   // len(tables): a write to a store with none takes no lock
	built     atomic.Int32   // the tables with a structure: a read of a store with none takes no lock

	// mu guards bytes, tables and their entries' fields but uses (counted atomically),
	// so that a kind may serve reads holding it shared (points.read).
	mu     sync.RWMutex
	bytes  int // the structures' sizes, summed
	tables map[string]*derivedEntry[V]
}

// sized is a derived structure: a pointer (nil for none) whose size is the bytes it
// counts against its kind's limit.
type sized interface {
	comparable
	size() int
}

// derivedEntry is one table's structure and the count of its uses.
type derivedEntry[V sized] struct {
	v        V            // the structure, if built; else nil
	loads    uint64       // derived.loads when v was built
	uses     atomic.Int64 // the uses served from v (points.read stops at after); with none, those since the table's last write
	work     atomic.Int64 // with no v: the entities uses read since the last structure, for a kind that bounds a build by them (images)
	need     int64        // the work a build waits for: twice what the last build given up past its entities could walk (outgrew)
	after    int          // the uses with no write between that build the next structure
	building bool         // a use is building the structure
}

// init readies c for structures of at most opt bytes together, as Options.ScanImageBytes
// gives them (zero for DefaultScanImageBytes), built on the first-th use, and waiting at
// most most uses, stamped with loads; it reports false when opt, negative, keeps none.
func (c *derived[V]) init(opt, first, most int, retryMost bool, loads *atomic.Uint64) bool {
	if opt < 0 {
		return false
	}
	if opt == 0 {
		opt = DefaultScanImageBytes
	}
	c.limit, c.first, c.most, c.retryMost, c.loads = opt, first, most, retryMost, loads
	c.tables = map[string]*derivedEntry[V]{}
	return true
}

// lookup counts a read-only use of table id, made under the loads stamp loads (even),
// and returns the table's structure, if one is current (else the zero V), and whether
// this use is to build it.
func (c *derived[V]) lookup(id []byte, loads uint64) (v V, build bool) {
	if v, ok := c.counted(id, loads); ok {
		return v, false
	}
	c.mu.Lock()
	e := c.tables[string(id)]
	if e == nil {
		e = &derivedEntry[V]{after: c.first}
		c.tables[string(id)] = e
		c.live.Store(int32(len(c.tables)))
	}
	var none V
	if e.v != none && e.loads != loads {
		c.drop(e)
	}
	if e.v == none {
		build = int(e.uses.Load())+1 >= e.after && e.work.Load() >= e.need && !e.building
		e.building = e.building || build
	}
	e.uses.Add(1)
	v = e.v
	c.mu.Unlock()
	return v, build
}

// counted is lookup's path for a use that changes no entry but its count: the table has
// an entry, with no structure or a current one, and no build is due. It holds mu shared
// only (uses is counted atomically), so that the reads of a table that is being written,
// which never build, do not queue behind each other or the writes; false sends the use
// to lookup's locked path.
func (c *derived[V]) counted(id []byte, loads uint64) (V, bool) {
	var none V
	c.mu.RLock()
	defer c.mu.RUnlock()
	e := c.tables[string(id)]
	switch {
	case e == nil, e.v != none && e.loads != loads:
		return none, false
	case e.v == none && int(e.uses.Load())+1 >= e.after && e.work.Load() >= e.need:
		return none, false
	}
	e.uses.Add(1)
	return e.v, true
}

// install ends the build lookup asked for: v, built under the loads stamp loads, becomes
// table id's structure if the structures' sum stays within the limit; otherwise, or when
// v is nil (the build gave up), the table waits longer before it is tried again (retry).
func (c *derived[V]) install(id string, v V, loads uint64) {
	var none V
	c.mu.Lock()
	switch e := c.tables[id]; {
	case e == nil:
	case v == none || c.bytes+v.size() > c.limit:
		e.building, e.after = false, c.retry(e.after)
		e.uses.Store(0)
		e.work.Store(0)
	default:
		e.building, e.v, e.loads, e.need = false, v, loads, 0
		e.uses.Store(0)
		e.work.Store(0)
		c.bytes += v.size()
		c.built.Add(1)
	}
	c.mu.Unlock()
}

// outgrew ends the build lookup asked for, given up after walking walked entities, as
// many as the work of the uses before it allowed: the table has more, and its next build
// waits until its uses have read twice as many (need), so that the walks of the builds
// given up add up to at most twice the last one's.
func (c *derived[V]) outgrew(id string, walked int) {
	c.mu.Lock()
	if e := c.tables[id]; e != nil {
		e.building, e.need = false, 2*int64(walked)
	}
	c.mu.Unlock()
}

// retry returns the wait for the next build of a table whose build after uses did not
// fit: most uses when retryMost is set, else twice as many, up to most.
func (c *derived[V]) retry(after int) int {
	if c.retryMost {
		return c.most
	}
	return min(2*after, c.most)
}

// drop forgets e's structure, if any, and starts counting the uses to the next: it takes
// twice as many as the structure waited for when it served fewer than that, else first.
func (c *derived[V]) drop(e *derivedEntry[V]) {
	var none V
	if e.v == none {
		return
	}
	c.bytes -= e.v.size()
	c.built.Add(-1)
	e.v = none
	if int(e.uses.Load()) < e.after {
		e.after = min(2*e.after, c.most)
	} else {
		e.after = c.first
	}
	e.uses.Store(0)
	e.work.Store(0)
}

// wrote notes a write of key, made under buntdb's write lock: a write of a table's own
// record (created or deleted) drops its structure and forgets the table; a write of an
// entity to a table with a structure keeps it when keep, nil for none, takes the write
// (keep patches it); otherwise the table's structure is dropped and the count of its uses
// starts again.
func (c *derived[V]) wrote(key string, keep func(id string) bool) {
	if c.live.Load() == 0 {
		return
	}
	id, ok := keyTable(key)
	if !ok {
		return
	}
	if c.sharedWrite(id, key, keep) {
		return
	}
	c.mu.Lock()
	switch e := c.tables[id]; {
	case e == nil:
	case key[0] == stored.TablePrefix[0]:
		c.drop(e)
		delete(c.tables, id)
		c.live.Store(int32(len(c.tables)))
	default: // an entity written to a table whose structure keep did not take
		c.drop(e)
		e.uses.Store(0)
	}
	c.mu.Unlock()
}

// sharedWrite is wrote's path for a write of an entity that changes no entry but its
// count: to a table with no structure, whose count of uses starts again, or with one that
// keep takes. It holds mu shared only (uses is counted atomically, and keep records the
// write in its own transaction), so that writes and the reads between them do not queue
// for mu; false sends the write to wrote's locked path, which drops the structure.
func (c *derived[V]) sharedWrite(id, key string, keep func(id string) bool) bool {
	var none V
	c.mu.RLock()
	defer c.mu.RUnlock()
	switch e := c.tables[id]; {
	case e == nil, key[0] == stored.TablePrefix[0]:
		return false
	case e.v == none:
		e.uses.Store(0)
		return true
	default:
		return keep != nil && keep(id)
	}
}

// stamp returns the loads stamp a use is made under, and false while commands are being
// loaded outside a transaction, when no structure may be read or built.
func (c *derived[V]) stamp() (uint64, bool) {
	loads := c.loads.Load()
	return loads, loads%2 == 0
}

// keyTable returns the table id of an entity key or a table record's key.
func keyTable(key string) (string, bool) {
	switch {
	case strings.HasPrefix(key, stored.EntityPrefix):
		id, _, ok := strings.Cut(key[len(stored.EntityPrefix):], stored.Sep)
		return id, ok
	case strings.HasPrefix(key, stored.TablePrefix):
		return key[len(stored.TablePrefix):], true
	}
	return "", false
}
