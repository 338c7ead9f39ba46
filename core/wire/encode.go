package wire

import (
	"encoding/base64"
	"math"
	"strconv"

	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/core/query"
	"github.com/tabletopdb/tabletop/core/stored"
)

// Context carries what the odata.* members of a response need, and the $select list. The
// writers take a non-nil *Context and only read it.
type Context struct {
	Metadata Metadata
	BaseURL  string          // "{scheme}://{host}", plus "/{account}" in path style; no trailing slash
	Account  string          // account name, for odata.type
	Table    string          // table name as stored
	Select   query.Selection // nil: every property; else only these, PartitionKey, RowKey and Timestamp only if listed, missing ones as null
	// Exact annotates the type of every value that is not a String or a Boolean, the
	// Timestamp included, whatever the metadata level: a reader then knows every type
	// exactly (a Double 5.0 is not an Int32 5). The browser module and dumps use it.
	Exact bool
}

// AppendEntity appends a single-entity response body (Get Entity, the Insert echo):
// {"odata.metadata":"{base}/$metadata#{table}/@Element","odata.etag":…,"PartitionKey":…}.
func AppendEntity(b []byte, e *model.Entity, c *Context) []byte {
	b = append(b, '{')
	if c.Metadata != NoMetadata {
		b = appendMetadataURL(b, c, c.Table, true)
	}
	b = appendEntityMembers(b, decoded{e}, c)
	return closeObject(b)
}

// AppendEntities appends a Query Entities response body:
// {"odata.metadata":"{base}/$metadata#{table}","value":[…]}.
func AppendEntities(b []byte, es []*model.Entity, c *Context) []byte {
	b = appendValueHead(b, c)
	for i, e := range es {
		if i > 0 {
			b = append(b, ',')
		}
		b = closeObject(appendEntityMembers(append(b, '{'), decoded{e}, c))
	}
	return append(b, "]}"...)
}

// AppendRecords appends a Query Entities response body as AppendEntities does, written
// straight from the stored records (query.Records), with no Entity built in between.
// Every record must be whole (stored.Record.Check).
func AppendRecords(b []byte, rs []stored.Record, c *Context) []byte {
	b = appendValueHead(b, c)
	for i := range rs {
		if i > 0 {
			b = append(b, ',')
		}
		b = closeObject(appendEntityMembers(append(b, '{'), inPlace{&rs[i]}, c))
	}
	return append(b, "]}"...)
}

// appendValueHead opens a feed: {"odata.metadata":"{base}/$metadata#{table}","value":[
func appendValueHead(b []byte, c *Context) []byte {
	b = append(b, '{')
	if c.Metadata != NoMetadata {
		b = appendMetadataURL(b, c, c.Table, false)
	}
	return append(b, `"value":[`...)
}

// closeObject ends an object whose members were each written with a trailing comma.
func closeObject(b []byte) []byte {
	if b[len(b)-1] == ',' {
		b[len(b)-1] = '}'
		return b
	}
	return append(b, '}')
}

// appendEntityMembers appends an entity's members, each followed by a comma.
func appendEntityMembers(b []byte, e source, c *Context) []byte {
	full := c.Metadata == FullMetadata
	pk, rk := e.keys()
	var tmp [40]byte
	ts := e.timestamp().AppendText(tmp[:0]) // for the ETag and the Timestamp
	if full {
		b = appendFullHead(b, pk, rk, ts, c)
	} else if c.Metadata == MinimalMetadata {
		b = appendETag(append(b, `"odata.etag":`...), ts)
		b = append(b, ',')
	}
	if c.Select.Includes(model.PartitionKeyName) {
		b = AppendString(append(b, `"PartitionKey":`...), pk)
		b = append(b, ',')
	}
	if c.Select.Includes(model.RowKeyName) {
		b = AppendString(append(b, `"RowKey":`...), rk)
		b = append(b, ',')
	}
	if c.Select.Includes(model.TimestampName) {
		if full || c.Exact {
			b = append(b, `"Timestamp@odata.type":"Edm.DateTime",`...)
		}
		b = append(append(b, `"Timestamp":"`...), ts...)
		b = append(b, `",`...)
	}
	if c.Select == nil {
		return e.appendAll(b, c)
	}
	return appendSelected(b, e, c)
}

// appendFullHead appends odata.type, odata.id, odata.etag and odata.editLink, given the
// text of the Timestamp.
func appendFullHead(b []byte, pk, rk string, ts []byte, c *Context) []byte {
	b = append(b, `"odata.type":"`...)
	b = appendStringBody(b, c.Account)
	b = append(b, '.')
	b = appendStringBody(b, c.Table)
	b = append(b, `","odata.id":"`...)
	b = appendStringBody(b, c.BaseURL)
	b = append(b, '/')
	b = AppendKeyPredicate(b, c.Table, pk, rk)
	b = append(b, `","odata.etag":`...)
	b = appendETag(b, ts)
	b = append(b, `,"odata.editLink":"`...)
	b = AppendKeyPredicate(b, c.Table, pk, rk)
	return append(b, `",`...)
}

// appendSelected appends the custom properties named by c.Select (which holds each name
// once, as query.ParseSelect gives it), in that order; a property the entity lacks is
// written as null.
func appendSelected(b []byte, e source, c *Context) []byte {
	for _, name := range c.Select {
		if name == model.PartitionKeyName || name == model.RowKeyName || name == model.TimestampName {
			continue
		}
		if v, ok := e.get(name); ok {
			b = appendProperty(b, name, v, c)
		} else {
			b = AppendString(b, name)
			b = append(b, ":null,"...)
		}
	}
	return b
}

// appendProperty appends a custom property, with its annotation first when the metadata
// level and the value (or c.Exact) call for one, each member followed by a comma.
func appendProperty(b []byte, name string, v model.Value, c *Context) []byte {
	if annotate(v, c) {
		b = append(b, '"')
		b = appendStringBody(b, name)
		b = append(b, `@odata.type":"`...)
		b = append(b, v.Type().String()...)
		b = append(b, `",`...)
	}
	b = AppendString(b, name)
	b = appendValue(append(b, ':'), v)
	return append(b, ',')
}

// annotate reports whether v is written with its type annotation under c.
func annotate(v model.Value, c *Context) bool {
	if c.Exact {
		return v.Type() != model.TypeString && v.Type() != model.TypeBoolean
	}
	return c.Metadata != NoMetadata && annotated(v)
}

// annotated reports whether a value needs its type annotated: JSON cannot tell Binary,
// DateTime, Guid and Int64 from strings, nor Double's NaN and infinities.
func annotated(v model.Value) bool {
	switch v.Type() {
	case model.TypeBinary, model.TypeDateTime, model.TypeGuid, model.TypeInt64:
		return true
	case model.TypeDouble:
		f := v.Double()
		return math.IsNaN(f) || math.IsInf(f, 0)
	}
	return false
}

// appendValue appends a value in its JSON wire form.
func appendValue(b []byte, v model.Value) []byte {
	switch v.Type() {
	case model.TypeBinary:
		b = base64.StdEncoding.AppendEncode(append(b, '"'), v.Bytes())
	case model.TypeBoolean:
		return strconv.AppendBool(b, v.Bool())
	case model.TypeDateTime:
		b = v.DateTime().AppendText(append(b, '"'))
	case model.TypeDouble:
		return appendDouble(b, v.Double())
	case model.TypeGuid:
		b = v.Guid().AppendText(append(b, '"'))
	case model.TypeInt32:
		return strconv.AppendInt(b, int64(v.Int32()), 10)
	case model.TypeInt64:
		b = strconv.AppendInt(append(b, '"'), v.Int64(), 10)
	default:
		return AppendString(b, v.Str())
	}
	return append(b, '"')
}
