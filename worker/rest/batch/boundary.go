package batch

import "github.com/tabletopdb/tabletop/core/model"

// NewBoundaries returns fresh response boundaries, "batchresponse_<uuid>" and
// "changesetresponse_<uuid>", with random (version 4) UUIDs.
func NewBoundaries() (batch, changeset string) {
	return "batchresponse_" + model.NewGuid().String(), "changesetresponse_" + model.NewGuid().String()
}
