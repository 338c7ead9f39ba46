package query

import (
	"slices"
	"strings"

	"github.com/tabletopdb/tabletop/core/model"
)

// Selection is a parsed $select: the property names to return, in the order given and
// without repeats. The nil Selection means every property.
//
// The query package only parses and validates a $select; the entity codec projects: it
// writes the selected properties an entity has, null for the selected ones it lacks, and
// always the ETag.
type Selection []string

// ParseSelect parses a $select such as "Name,Age,PartitionKey". "" or a "*" among the
// names gives nil (all). Each name must be a system property (PartitionKey, RowKey,
// Timestamp) or a valid custom property name; TableName is valid too, for Query Tables.
// Errors are *SyntaxError values wrapping ErrSelectInvalid, Pos the 0-based character
// offset of the bad name.
func ParseSelect(s string) (Selection, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	var sel Selection
	all := false
	off := 0
	for part := range strings.SplitSeq(s, ",") {
		name := strings.TrimSpace(part)
		pos := off + strings.Index(part, name)
		off += len(part) + 1
		if name == "*" {
			all = true
			continue
		}
		if err := validSelectName(name); err != nil {
			return nil, errAt(s, pos, ErrSelectInvalid, "%q is not a property name", name)
		}
		if len(sel) >= model.MaxProperties {
			return nil, errAt(s, pos, ErrSelectInvalid, "more than %d properties selected", model.MaxProperties)
		}
		if !slices.Contains(sel, name) {
			sel = append(sel, name)
		}
	}
	if all {
		return nil, nil
	}
	return sel, nil
}

func validSelectName(name string) error {
	switch name {
	case model.PartitionKeyName, model.RowKeyName, model.TimestampName:
		return nil
	}
	return model.ValidatePropertyName(name)
}

// Includes reports whether the selection holds name; the nil Selection holds every name.
func (s Selection) Includes(name string) bool {
	if s == nil {
		return true
	}
	for _, n := range s {
		if n == name {
			return true
		}
	}
	return false
}
