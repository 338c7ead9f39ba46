package main

import (
	"encoding/binary"
	"math"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/query"
)

// An entity answer (getEntity's) is binary, read in place by web/src/values.js with a
// DataView: no JSON text is written in Go or parsed in JavaScript, and every value keeps
// its exact type. Numbers are little-endian:
//
//	flags u8 | etag text | [PartitionKey text] | [RowKey text] | [Timestamp text] |
//	count u32 | (type u8 | name text | value)…
//
// flags says which of the three system properties follow (entityHasPartitionKey, …),
// those the selection includes. A text is its length in bytes (u32) and its UTF-8 bytes.
// type is the value's core.Type, or typeNull for a selected property the entity lacks,
// which has no value. A String, Guid or DateTime value (this one with its seven
// fractional digits) is a text, Binary a u32 length and the bytes, Boolean one byte,
// Int32 an int32, Int64 an int64 and Double a float64.

// A page answer (queryEntities') is binary too: the continuation's next PartitionKey and
// next RowKey tokens and the query's plan, each a text, then a u32 count and that many
// entity answers back to back.

// The flags of an entity answer.
const (
	entityHasPartitionKey = 1 << iota
	entityHasRowKey
	entityHasTimestamp
)

// typeNull is the type of a selected property the entity lacks.
const typeNull = 0xff

// appendEntityAnswer appends the entity answer of a whole record, projected by sel (nil
// for every property) as Azure's $select projects: PartitionKey, RowKey and Timestamp
// only if listed, properties in the listed order, a missing one as null.
func appendEntityAnswer(b []byte, r *core.Record, sel query.Selection) []byte {
	var flags byte
	for i, name := range []string{core.PartitionKeyName, core.RowKeyName, core.TimestampName} {
		if sel.Includes(name) {
			flags |= 1 << i
		}
	}
	ts := r.Timestamp()
	b = appendTextOf(append(b, flags), func(b []byte) []byte { return core.AppendETag(b, ts) })
	if flags&entityHasPartitionKey != 0 {
		b = appendText(b, r.PartitionKey)
	}
	if flags&entityHasRowKey != 0 {
		b = appendText(b, r.RowKey)
	}
	if flags&entityHasTimestamp != 0 {
		b = appendTextOf(b, ts.AppendText)
	}
	at := len(b)
	b = append(b, 0, 0, 0, 0)
	count := uint32(0)
	if sel == nil {
		for name, v := range r.Properties() {
			b = appendProperty(b, name, v)
			count++
		}
	} else {
		for _, name := range sel {
			if name == core.PartitionKeyName || name == core.RowKeyName || name == core.TimestampName {
				continue
			}
			if v, ok := r.Lookup(name); ok {
				b = appendProperty(b, name, v)
			} else {
				b = appendText(append(b, typeNull), name)
			}
			count++
		}
	}
	binary.LittleEndian.PutUint32(b[at:], count)
	return b
}

// appendPageAnswer appends the page answer of a page of whole records.
func appendPageAnswer(b []byte, page *query.RecordPage, sel query.Selection) []byte {
	b = appendText(b, page.NextPartitionKey)
	b = appendText(b, page.NextRowKey)
	b = appendText(b, page.Plan)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(page.Records)))
	for i := range page.Records {
		b = appendEntityAnswer(b, &page.Records[i], sel)
	}
	return b
}

// appendProperty appends a property's type, name and value.
func appendProperty(b []byte, name string, v core.Value) []byte {
	b = appendText(append(b, byte(v.Type())), name)
	switch v.Type() {
	case core.TypeBinary:
		return appendText(b, v.Raw())
	case core.TypeBoolean:
		if v.Bool() {
			return append(b, 1)
		}
		return append(b, 0)
	case core.TypeDateTime:
		return appendTextOf(b, v.DateTime().AppendText)
	case core.TypeDouble:
		return binary.LittleEndian.AppendUint64(b, math.Float64bits(v.Double()))
	case core.TypeGuid:
		return appendTextOf(b, v.Guid().AppendText)
	case core.TypeInt32:
		return binary.LittleEndian.AppendUint32(b, uint32(v.Int32()))
	case core.TypeInt64:
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
