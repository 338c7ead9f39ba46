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
