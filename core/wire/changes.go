package wire

import (
	"strconv"

	"github.com/tabletopdb/tabletop/core"
)

// The members of a change feed page beside "value". Their names hold a dot, which no
// property name may, so they never collide with an entity's.
const (
	// CheckpointMember holds the checkpoint the next page resumes after.
	CheckpointMember = "tabletop.checkpoint"
	// MoreMember is true when more changes may follow, false at the end of the feed.
	MoreMember = "tabletop.more"
	// DeletedMember lists the deleted entities.
	DeletedMember = "tabletop.deleted"
)

// AppendChanges appends a change feed page: the checkpoint to resume after and whether
// more may follow, the entities of cs under "value", written as Query Entities writes
// them, then the deletions under DeletedMember, each as its keys and the deletion's
// Timestamp, both in feed order:
// {"odata.metadata":…,"tabletop.checkpoint":…,"tabletop.more":…,"value":[…],"tabletop.deleted":[{"PartitionKey":…,"RowKey":…,"Timestamp":…}]}.
// A page holds each entity at most once, so the two lists may be applied in either order.
func AppendChanges(b []byte, cs []core.Change, checkpoint string, more bool, c *Context) []byte {
	b = append(b, '{')
	if c.Metadata != NoMetadata {
		b = appendMetadataURL(b, c, c.Table, false)
	}
	b = AppendString(append(b, `"`+CheckpointMember+`":`...), checkpoint)
	b = strconv.AppendBool(append(b, `,"`+MoreMember+`":`...), more)
	b = appendChangeList(append(b, `,"value":[`...), cs, false, c)
	b = append(b, `],"`+DeletedMember+`":[`...)
	keys := &Context{Metadata: NoMetadata}
	b = appendChangeList(b, cs, true, keys)
	return append(b, "]}"...)
}

// appendChangeList appends the changes of cs that are deletions, or that are not, as
// comma-separated objects.
func appendChangeList(b []byte, cs []core.Change, deleted bool, c *Context) []byte {
	first := true
	for _, ch := range cs {
		if ch.Deleted() != deleted {
			continue
		}
		if !first {
			b = append(b, ',')
		}
		first = false
		e := ch.Entity
		if deleted {
			e = &core.Entity{PartitionKey: ch.PartitionKey, RowKey: ch.RowKey, Timestamp: ch.Timestamp}
		}
		b = closeObject(appendEntityMembers(append(b, '{'), decoded{e}, c))
	}
	return b
}
