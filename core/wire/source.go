package wire

import (
	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/model"
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

// stored is a stored record as a source.
type stored struct{ r *core.Record }

func (s stored) keys() (string, string)              { return s.r.PartitionKey, s.r.RowKey }
func (s stored) timestamp() model.DateTime           { return s.r.Timestamp() }
func (s stored) get(name string) (model.Value, bool) { return s.r.Lookup(name) }
func (s stored) appendAll(b []byte, c *Context) []byte {
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
