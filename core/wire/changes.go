package wire

import "github.com/tabletopdb/tabletop/core"

// DeletedMember is the member of a change feed page that lists the deleted entities. Its
// name holds a dot, which no property name may, so it never collides with an entity's.
const DeletedMember = "tabletop.deleted"

// AppendChanges appends a change feed page: the entities of cs under "value", written as
// Query Entities writes them, then the deletions under DeletedMember, each as its keys and
// the deletion's Timestamp, both in feed order:
// {"odata.metadata":…,"value":[…],"tabletop.deleted":[{"PartitionKey":…,"RowKey":…,"Timestamp":…}]}.
// A page holds each entity at most once, so the two lists may be applied in either order.
func AppendChanges(b []byte, cs []core.Change, c *Context) []byte {
	b = append(b, '{')
	if c.Metadata != NoMetadata {
		b = appendMetadataURL(b, c, c.Table, false)
	}
	b = appendChangeList(append(b, `"value":[`...), cs, false, c)
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
