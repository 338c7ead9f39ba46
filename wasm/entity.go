package main

import (
	"encoding/binary"
	"math"

	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/core/query"
	"github.com/tabletopdb/tabletop/core/stored"
)

// An entity answer (getEntity's) is binary, read in place by web/src/values.js with a
// DataView: no JSON text is written in Go or parsed in JavaScript, and every value keeps
// its exact type. Numbers are little-endian:
//
//	flags u8 | Timestamp text | [PartitionKey text] | [RowKey text] |
//	count u32 | (type u8 | name | value)…
//
// flags says which of the three system properties the answer includes
// (entityHasPartitionKey, …), those the selection includes; the Timestamp's text comes
// first whether or not it is included, since the ETag is made from it (model.AppendETag:
// W/"datetime'…'" around the text with each ':' written %3A), by JavaScript, so that the
// answer carries the same 28 bytes once instead of twice. A text is its length in bytes
// (u32) and its UTF-8 bytes. A name is a text the first time the answer writes it (up to
// maxNames distinct names, numbered from 0 in the order written); after that, a u32 with
// nameRef set and the name's number, so that a page of entities with the same properties
// carries each name once. type is the value's model.Type, or typeNull for a selected
// property the entity lacks, which has no value. A String, Guid or DateTime value (this one
// with its seven fractional digits) is a text, Binary a u32 length and the bytes, Boolean
// one byte, Int32 an int32, Int64 an int64 and Double a float64.

// A page answer (queryEntities') is binary too: the continuation's next PartitionKey and
// next RowKey tokens and the query's plan, each a text, then a u32 count and that many
// entity answers back to back, numbering names across the whole page.

// The flags of an entity answer.
const (
	entityHasPartitionKey = 1 << iota
	entityHasRowKey
	entityHasTimestamp
)

// typeNull is the type of a selected property the entity lacks.
const typeNull = 0xff

// nameRef marks a name written as the number of an earlier one; maxNames is how many
// names an answer numbers (a linear search finds them: answers name few properties).
const (
	nameRef  = 1 << 31
	maxNames = 64
)

// nameTable is the names an answer has written so far, by number.
type nameTable []string

// appendName appends name as a reference when the answer wrote it before, else as a text,
// numbering it while fewer than maxNames are; it returns the table with it. hint is where
// it is likely to be: the property's position, since the entities of a page mostly share
// their properties' order. (Tables are passed by value, not pointer, so that their room
// stays on the stack.)
func (t nameTable) appendName(b []byte, name string, hint int) ([]byte, nameTable) {
	if hint < len(t) && t[hint] == name {
		return binary.LittleEndian.AppendUint32(b, nameRef|uint32(hint)), t
	}
	for i, n := range t {
		if n == name {
			return binary.LittleEndian.AppendUint32(b, nameRef|uint32(i)), t
		}
	}
	if len(t) < maxNames {
		t = append(t, name)
	}
	return appendText(b, name), t
}

// appendEntityAnswer appends the entity answer of a whole record, projected by sel (nil
// for every property) as Azure's $select projects: PartitionKey, RowKey and Timestamp
// only if listed, properties in the listed order, a missing one as null.
func appendEntityAnswer(b []byte, r *stored.Record, sel query.Selection) []byte {
	var room [maxNames]string
	b, _ = appendEntity(b, r, sel, room[:0])
	return b
}

// appendEntity appends an entity answer whose names continue the table names, and returns
// the table with its names.
func appendEntity(b []byte, r *stored.Record, sel query.Selection, names nameTable) ([]byte, nameTable) {
	var flags byte
	for i, name := range []string{model.PartitionKeyName, model.RowKeyName, model.TimestampName} {
		if sel.Includes(name) {
			flags |= 1 << i
		}
	}
	b = appendTextOf(append(b, flags), r.Timestamp().AppendText)
	if flags&entityHasPartitionKey != 0 {
		b = appendText(b, r.PartitionKey)
	}
	if flags&entityHasRowKey != 0 {
		b = appendText(b, r.RowKey)
	}
	at := len(b)
	b = append(b, 0, 0, 0, 0)
	count := 0
	if sel == nil {
		for name, v := range r.Properties() {
			b, names = names.appendName(append(b, byte(v.Type())), name, count)
			b = appendProperty(b, v)
			count++
		}
	} else {
		for _, name := range sel {
			if name == model.PartitionKeyName || name == model.RowKeyName || name == model.TimestampName {
				continue
			}
			if v, ok := r.Lookup(name); ok {
				b, names = names.appendName(append(b, byte(v.Type())), name, count)
				b = appendProperty(b, v)
			} else {
				b, names = names.appendName(append(b, typeNull), name, count)
			}
			count++
		}
	}
	binary.LittleEndian.PutUint32(b[at:], uint32(count))
	return b, names
}

// appendPageAnswer appends the page answer of a page of whole records.
func appendPageAnswer(b []byte, page *query.RecordPage, sel query.Selection) []byte {
	b = appendText(b, page.NextPartitionKey)
	b = appendText(b, page.NextRowKey)
	b = appendText(b, page.Plan)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(page.Records)))
	var room [maxNames]string
	names := nameTable(room[:0])
	for i := range page.Records {
		b, names = appendEntity(b, &page.Records[i], sel, names)
	}
	return b
}

// appendProperty appends a property's value (after its type and name).
func appendProperty(b []byte, v model.Value) []byte {
	switch v.Type() {
	case model.TypeBinary:
		return appendText(b, v.Raw())
	case model.TypeBoolean:
		if v.Bool() {
			return append(b, 1)
		}
		return append(b, 0)
	case model.TypeDateTime:
		return appendTextOf(b, v.DateTime().AppendText)
	case model.TypeDouble:
		return binary.LittleEndian.AppendUint64(b, math.Float64bits(v.Double()))
	case model.TypeGuid:
		return appendTextOf(b, v.Guid().AppendText)
	case model.TypeInt32:
		return binary.LittleEndian.AppendUint32(b, uint32(v.Int32()))
	case model.TypeInt64:
		return binary.LittleEndian.AppendUint64(b, uint64(v.Int64()))
	default:
		return appendText(b, v.Str())
	}
}

// appendText appends s's length and bytes.
func appendText(b []byte, s string) []byte {
	return append(binary.LittleEndian.AppendUint32(b, uint32(len(s))), s...)
}

// appendTextOf appends the length and bytes of what write appends.
func appendTextOf(b []byte, write func([]byte) []byte) []byte {
	at := len(b)
	b = write(append(b, 0, 0, 0, 0))
	binary.LittleEndian.PutUint32(b[at:], uint32(len(b)-at-4))
	return b
}
