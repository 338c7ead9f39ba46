//go:build !linux

package file

import "os"

// allocate reports that space cannot be allocated ahead here: a write that meets a full
// disk then fails after the store applied it, and the store rolls it back (see
// core.GroupCommitter's Discard).
func allocate(*os.File, int64, int64) error { return errAllocateUnsupported }
