package core

import "sync/atomic"

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

// imageWalkMin is how many entities an image's build may walk beyond those the scans of
// the table read from the tree since its last image (derivedEntry.work): a build walks
// no more than that, and gives up past it (derived.outgrew), and the next waits until the
// scans have read twice what it could walk. So a table's image is built once its scans
// have cost about what the build costs, and a large table read a partition at a time
// does not stall its writers for a whole-table walk every few scans; a table scanned
// whole, or one of a few thousand entities, gets one on its imageAfter-th scan.
const imageWalkMin = 4096

// images holds a store's scan images (see scanImage) and, for each table scanned, the
// count of its scans (see derived). A write to a table patches the table's image inside
// the write transaction rather than dropping it (scanimage_patch.go).
type images struct {
	derived[*scanImage]
}

// newImages returns the image cache of a store whose options allow limit bytes of
// images: none when limit is negative.
func newImages(limit int, loads *atomic.Uint64) *images {
	c := &images{}
	if !c.init(limit, imageAfter, maxAfter, true, loads) {
		return nil
	}
	return c
}

// took adds n, the entities a scan of table id read from the tree, to what the table's
// image build may walk (walk).
func (c *images) took(id []byte, n int) {
	c.mu.RLock()
	if e := c.tables[string(id)]; e != nil {
		e.work.Add(int64(n))
	}
	c.mu.RUnlock()
}

// walk returns how many entities the build of table id's image may walk.
func (c *images) walk(id string) int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	if e := c.tables[id]; e != nil {
		return int(e.work.Load()) + imageWalkMin
	}
	return imageWalkMin
}
