package wire

import (
	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/core/stored"
)

// source is an entity to write: decoded, or a stored record read in place.
type source interface {
	keys() (pk, rk string)
	timestamp() model.DateTime
	get(name string) (model.Value, bool)
	// appendAll appends every custom property, as appendProperty does.
	appendAll(b []byte, c *Context) []byte
}

// decoded is an Entity as a source.
type decoded struct{ e *model.Entity }

func (d decoded) keys() (string, string)              { return d.e.PartitionKey, d.e.RowKey }
func (d decoded) timestamp() model.DateTime           { return d.e.Timestamp }
func (d decoded) get(name string) (model.Value, bool) { return d.e.Get(name) }
func (d decoded) appendAll(b []byte, c *Context) []byte {
	for _, p := range d.e.Properties {
		b = appendProperty(b, p.Name, p.Value, c)
	}
	return b
}

// inPlace is a stored record, read in place, as a source.
type inPlace struct{ r *stored.Record }

func (s inPlace) keys() (string, string)              { return s.r.PartitionKey, s.r.RowKey }
func (s inPlace) timestamp() model.DateTime           { return s.r.Timestamp() }
func (s inPlace) get(name string) (model.Value, bool) { return s.r.Lookup(name) }
func (s inPlace) appendAll(b []byte, c *Context) []byte {
	for name, v := range s.r.Properties() {
		b = appendProperty(b, name, v, c)
	}
	return b
}

// appendMetadataURL appends the member "odata.metadata":"{base}/$metadata#{set}[/@Element]",.
func appendMetadataURL(b []byte, c *Context, set string, element bool) []byte {
	b = append(b, `"odata.metadata":"`...)
	b = appendStringBody(b, c.BaseURL)
	b = append(b, "/$metadata#"...)
	b = appendStringBody(b, set)
	if element {
		b = append(b, "/@Element"...)
	}
	return append(b, `",`...)
}
