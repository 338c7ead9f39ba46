package wire

import (
	"strconv"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/model"
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
	// WaitMember, in the answer to a request that asked to wait for changes, holds how
	// many seconds the server may hold an empty page open: 0 where it serves no waits.
	WaitMember = "tabletop.wait"
)

// ChangePage is a page of a change feed as AppendChanges writes it.
type ChangePage struct {
	Changes    []core.Change
	Checkpoint string // the checkpoint the next page resumes after
	More       bool   // more changes may follow
	Wait       int    // the seconds an empty page may wait (WaitMember); negative: not asked
}

// AppendChanges appends a change feed page: the checkpoint to resume after, whether more
// may follow and the wait if asked, the entities of its changes under "value", written as
// Query Entities writes them, then the deletions under DeletedMember, each as its keys and
// the deletion's Timestamp, both in feed order:
// {"odata.metadata":…,"tabletop.checkpoint":…,"tabletop.more":…,"value":[…],"tabletop.deleted":[{"PartitionKey":…,"RowKey":…,"Timestamp":…}]}.
// A page holds each entity at most once, so the two lists may be applied in either order.
func AppendChanges(b []byte, p ChangePage, c *Context) []byte {
	b = append(b, '{')
	if c.Metadata != NoMetadata {
		b = appendMetadataURL(b, c, c.Table, false)
	}
	b = AppendString(append(b, `"`+CheckpointMember+`":`...), p.Checkpoint)
	b = strconv.AppendBool(append(b, `,"`+MoreMember+`":`...), p.More)
	if p.Wait >= 0 {
		b = strconv.AppendInt(append(b, `,"`+WaitMember+`":`...), int64(p.Wait), 10)
	}
	b = appendChangeList(append(b, `,"value":[`...), p.Changes, false, c)
	b = append(b, `],"`+DeletedMember+`":[`...)
	keys := &Context{Metadata: NoMetadata}
	b = appendChangeList(b, p.Changes, true, keys)
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
			e = &model.Entity{PartitionKey: ch.PartitionKey, RowKey: ch.RowKey, Timestamp: ch.Timestamp}
		}
		b = closeObject(appendEntityMembers(append(b, '{'), decoded{e}, c))
	}
	return b
}
