package batch

import "github.com/tabletopdb/tabletop/core"

// NewBoundaries returns fresh response boundaries, "batchresponse_<uuid>" and
// "changesetresponse_<uuid>", with random (version 4) UUIDs.
func NewBoundaries() (batch, changeset string) {
	return "batchresponse_" + core.NewGuid().String(), "changesetresponse_" + core.NewGuid().String()
}
