package stored

import (
	"github.com/tabletopdb/tabletop/core/model"
	"iter"
)

// Record is an entity as the store holds it: its keys and its stored form, read in place.
// A filter compares the properties it names with Lookup, and the wire codec writes a page
// with Properties, without building an Entity. A Record's strings share the store's
// memory, which never changes once written, so a Record stays valid after its transaction
// ends.
type Record struct {
	PartitionKey string
	RowKey       string
	data         string // the stored form; see entity_codec.go
	keys         string // when not "", the keys as the store holds them, not split yet
}

// RecordOf returns the record of entity (pk, rk) whose stored form is data.
func RecordOf(pk, rk, data string) Record {
	return Record{PartitionKey: pk, RowKey: rk, data: data}
}

// UnsplitRecord returns the record whose stored form is data and whose keys are keys, an
// entity key after its table's prefix (TableEntities), left to SplitKeys to split: a scan
// whose reader needs no keys does not pay for splitting them.
func UnsplitRecord(keys, data string) Record {
	return Record{data: data, keys: keys}
}

// Data returns the record's stored form, as EncodeEntity made it.
func (r *Record) Data() string { return r.data }

// SplitKeys sets the record's PartitionKey and RowKey when a scan left them to be found
// (UnsplitRecord); otherwise it does nothing.
func (r *Record) SplitKeys() {
	if r.keys != "" {
		r.splitKeys()
	}
}

func (r *Record) splitKeys() {
	r.PartitionKey, r.RowKey = SplitEntityKey(r.keys, 0)
	r.keys = ""
}

// NewRecord returns the record the store holds for e: e's keys, Timestamp and properties
// in their stored form.
func NewRecord(e *model.Entity) Record {
	return Record{PartitionKey: e.PartitionKey, RowKey: e.RowKey, data: EncodeEntity(e.Timestamp, e.Properties)}
}

// Timestamp returns the record's Timestamp, read from the head of the stored form; zero if
// the record is corrupt.
func (r *Record) Timestamp() model.DateTime {
	d := decoder{s: r.data}
	if d.byte() != Version {
		return 0
	}
	ts := d.uvarint()
	if d.err {
		return 0
	}
	return model.DateTime(ts)
}

// Lookup returns the value of the named custom property and whether the record has it. It
// steps over the properties before it without building their values and allocates
// nothing: the value's text shares the record's memory. A malformed property before the
// one sought, or the one sought, reads as absent.
func (r *Record) Lookup(name string) (model.Value, bool) {
	s := r.data
	i, left := propertiesAt(s)
	for ; left > 0; left-- {
		if i+1 >= len(s) {
			break
		}
		typ := model.Type(s[i])
		n, at := int(s[i+1]), i+2 // a name's length, one byte unless 128 or more
		if n >= 0x80 {
			n, at = lengthAt(s, i+1)
		}
		if at < 0 || n > len(s)-at {
			break
		}
		end := at + n
		if n == len(name) && sameName(s[at:end], name) {
			v, next := valueAt(s, typ, end)
			return v, next >= 0
		}
		if i = skipValue(s, typ, end); i < 0 {
			break
		}
	}
	return model.Value{}, false
}

// sameName reports whether the names a and b, of the same length, are equal. Most names
// are short: it compares them byte by byte, without the call a string comparison makes,
// and rejects a different name at its first byte.
func sameName(a, b string) bool {
	if len(a) > 16 {
		return a == b
	}
	b = b[:len(a)]
	for k := range len(a) {
		if a[k] != b[k] {
			return false
		}
	}
	return true
}

// Properties iterates over the record's custom properties in stored order, name and
// value, without allocating. It stops early at a malformed property: Check tells whether
// the record is whole.
func (r *Record) Properties() iter.Seq2[string, model.Value] {
	return func(yield func(string, model.Value) bool) {
		s := r.data
		i, left := propertiesAt(s)
		for ; left > 0 && i >= 0; left-- {
			var name string
			var v model.Value
			if name, v, i = propertyAt(s, i); i < 0 || !yield(name, v) {
				return
			}
		}
	}
}

// propertyAt reads the property stored at s[i:] and returns its name, its value and the
// offset just past it; -1 when it is malformed.
func propertyAt(s string, i int) (string, model.Value, int) {
	if i >= len(s) {
		return "", model.Value{}, -1
	}
	n, at := lengthAt(s, i+1)
	if at < 0 {
		return "", model.Value{}, -1
	}
	v, end := valueAt(s, model.Type(s[i]), at+n)
	if end < 0 {
		return "", model.Value{}, -1
	}
	return s[at : at+n], v, end
}

// Check reports ErrCorrupt unless the stored form decodes in full, by the rules of
// DecodeEntity, without allocating.
func (r *Record) Check() error {
	if _, ok := r.walk(false); !ok {
		return ErrCorrupt
	}
	return nil
}

// Size returns the entity's size by Azure's formula (see Entity.Size), from the stored
// form; for a corrupt record, the size of the part before the corruption.
func (r *Record) Size() int {
	n, _ := r.Measure()
	return n
}

// Measure returns what Size and Check return, in one pass over the stored form.
func (r *Record) Measure() (int, error) {
	n, ok := r.walk(true)
	n += 4 + 2*(model.UTF16Len(r.PartitionKey)+model.UTF16Len(r.RowKey))
	if !ok {
		return n, ErrCorrupt
	}
	return n, nil
}

// walk steps over every property of the stored form, checking each as DecodeEntity
// does, and returns whether the form is whole and, with measure, the size of the
// properties by Azure's formula (see Entity.Size); without, it counts no UTF-16 units,
// which a point read, that only checks, does not pay for. It builds no value.
func (r *Record) walk(measure bool) (size int, ok bool) {
	s := r.data
	i, left := propertiesAt(s)
	if i < 0 {
		return 0, false
	}
	for ; left > 0; left-- {
		if i >= len(s) {
			return size, false
		}
		typ := model.Type(s[i])
		n, at := lengthAt(s, i+1)
		if at < 0 {
			return size, false
		}
		end := at + n
		if i = skipValue(s, typ, end); i < 0 {
			return size, false
		}
		if measure {
			size += 8 + 2*model.UTF16Len(s[at:end]) + storedSize(typ, s[end:i])
		}
	}
	return size, i == len(s)
}

// Entity decodes the record into an Entity.
func (r *Record) Entity() (*model.Entity, error) {
	return DecodeEntity(r.PartitionKey, r.RowKey, r.data)
}
