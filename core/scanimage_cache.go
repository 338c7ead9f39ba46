package core

import (
	"sync"
	"sync/atomic"
)

// imageAfter is how many read-only scans of a table, with no write to the table between
// them, build its image, on the last of them. Building one costs about one or two scans
// of the tree; so that a table written every few scans does not pay for images it hardly
// reads, an image dropped before it served as many scans as it waited for doubles the
// wait for the next, up to maxAfter, and one that served them resets it. A table whose
// image outgrew the store's limit also waits maxAfter scans before it is tried again.
const (
	imageAfter = 3
	maxAfter   = 64 * imageAfter
)

// images holds a store's scan images (see scanImage) and, for each table scanned, the
// count of its scans. Its consistency rests on buntdb's lock: every write to a table
// patches or drops the table's image inside the write transaction, under buntdb's write
// lock (scanimage_patch.go), and an image is built and installed inside a read
// transaction, under its read lock, so an image is never read by a transaction that sees
// a write the image does not hold, nor one it holds that the transaction does not see.
// Change sets and ranges loaded outside a transaction (loadCommands) move loads, which
// images are stamped with.
type images struct {
	limit int           // the most bytes the images may take together
	loads atomic.Uint64 // odd while commands are loaded outside a transaction
	live  atomic.Int32  // len(tables): a write to a store with none takes no lock

	mu     sync.Mutex
	bytes  int // the images' sizes, summed
	tables map[string]*imageEntry
}

// imageEntry is one table's image and the count of its scans.
type imageEntry struct {
	img      *scanImage
	scans    int  // the scans read from img; with none, those since the table's last write
	after    int  // the scans with no write between that build the next image
	building bool // a scan is building the image
}

// newImages returns the image cache of a store whose options allow limit bytes of
// images: none when limit is negative.
func newImages(limit int) *images {
	if limit < 0 {
		return nil
	}
	if limit == 0 {
		limit = DefaultScanImageBytes
	}
	return &images{limit: limit, tables: map[string]*imageEntry{}}
}

// lookup counts a read-only scan of table id and returns the image to read it from, if
// one is current; otherwise whether this scan is to build it, and the loads stamp to
// give it.
func (c *images) lookup(id string) (m *scanImage, build bool, loads uint64) {
	loads = c.loads.Load()
	if loads%2 == 1 {
		return nil, false, 0
	}
	c.mu.Lock()
	e := c.tables[id]
	if e == nil {
		e = &imageEntry{after: imageAfter}
		c.tables[id] = e
		c.live.Store(int32(len(c.tables)))
	}
	if e.img == nil || e.img.loads != loads {
		c.drop(e)
		build = e.scans+1 >= e.after && !e.building
		e.building = e.building || build
	}
	e.scans++
	m = e.img
	c.mu.Unlock()
	if !build {
		loads = 0
	}
	return m, build, loads
}

// install ends the build lookup asked for: m, nil when the table outgrew the limit,
// becomes the table's image if the images' sum stays within it; otherwise the table is
// walked for an image again only after maxAfter scans.
func (c *images) install(id string, m *scanImage) {
	c.mu.Lock()
	switch e := c.tables[id]; {
	case e == nil:
	case m == nil || c.bytes+m.size() > c.limit:
		e.building, e.scans, e.after = false, 0, maxAfter
	default:
		e.building, e.scans, e.img = false, 0, m
		c.bytes += m.size()
	}
	c.mu.Unlock()
}

// drop forgets e's image, if any, and starts counting the scans to the next: it takes
// twice as many as the image waited for when it served fewer than that, else imageAfter.
func (c *images) drop(e *imageEntry) {
	if e.img != nil {
		c.bytes -= e.img.size()
		e.img = nil
		if e.scans < e.after {
			e.after = min(2*e.after, maxAfter)
		} else {
			e.after = imageAfter
		}
		e.scans = 0
	}
}

// load runs fn, which loads commands into the index outside a transaction, so that no
// image built before it is read after it.
func (c *images) load(fn func() error) error {
	if c == nil {
		return fn()
	}
	c.loads.Add(1)
	defer c.loads.Add(1)
	return fn()
}
