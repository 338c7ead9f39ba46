package wire

import (
	"bytes"
	"sync"
	"unsafe"

	"github.com/tabletopdb/tabletop/core/model"
)

// maxMembers bounds the distinct property names of one body: more than four times the 252
// custom properties an entity may have, so that nulls and annotations never hit it, while
// duplicate detection stays cheap.
const maxMembers = 1024

const annotationSuffix = "@odata.type"

// Keys reports which of the two keys an entity body named with a string value.
type Keys struct {
	PartitionKey bool
	RowKey       bool
}

// DecodeEntity parses a JSON entity request body (see the package documentation for the
// rules). A body that lacks a string PartitionKey or RowKey is an error wrapping
// model.ErrKeyMissing; one that gives a key a value other than a string is an error
// wrapping model.ErrValueInvalid. DecodeEntity does not apply the data model's rules
// (model.Entity.Validate); the returned entity has a zero Timestamp.
func DecodeEntity(data []byte) (*model.Entity, error) {
	e, keys, err := DecodeEntityBody(data)
	if err != nil {
		return nil, err
	}
	if !keys.PartitionKey {
		return nil, &model.FieldError{Field: model.PartitionKeyName, Err: model.ErrKeyMissing}
	}
	if !keys.RowKey {
		return nil, &model.FieldError{Field: model.RowKeyName, Err: model.ErrKeyMissing}
	}
	return e, nil
}

// DecodeEntityBody is DecodeEntity for bodies whose keys may also come from elsewhere, such
// as the URL of an update: a missing (or null) key is left empty and reported in keys
// instead of failing.
func DecodeEntityBody(data []byte) (e *model.Entity, keys Keys, err error) {
	d := decoder{sc: scanner{data: data, buf: make([]byte, 0, len(data))}}
	n := min(bytes.Count(data, []byte{':'}), maxMembers) // at least the members, roughly
	s := scratchPool.Get().(*scratch)
	d.members, d.hashes = s.members[:0], s.hashes[:0]
	if cap(d.members) < n {
		d.members, d.hashes = make([]member, 0, n), make([]uint32, 0, n)
	}
	if err = d.sc.topObject(d.member); err == nil {
		e, err = d.entity()
		keys = d.keys
	}
	s.members, s.hashes = d.members[:0], d.hashes[:0]
	scratchPool.Put(s)
	return e, keys, err
}

// scratch is a decoder's table of members, kept in scratchPool between decodings:
// nothing decoded refers to it (the entity's strings share the scanner's buffer of
// decoded text, which is the entity's own).
type scratch struct {
	members []member
	hashes  []uint32
}

var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

// DecodeTableName parses a Create Table body, {"TableName":"name"}; other members are
// ignored. It does not validate the name (model.ValidateTableName does).
func DecodeTableName(data []byte) (string, error) {
	sc := scanner{data: data}
	name, found := "", false
	err := sc.topObject(func(key span) error {
		if string(sc.text(key)) != "TableName" {
			return sc.skip(0)
		}
		k, sp, _, err := sc.value()
		switch {
		case err != nil:
			return err
		case k == kindString && found:
			return &model.FieldError{Field: "TableName", Err: model.ErrDuplicateProperty}
		case k == kindString:
			name, found = string(sc.text(sp)), true
		case k != kindNull:
			return &model.FieldError{Field: "TableName", Err: model.ErrValueInvalid}
		}
		return nil
	})
	if err == nil && !found {
		err = ErrTableNameMissing
	}
	return name, err
}

// member is one property of a body being decoded: its value, its annotation, or both.
type member struct {
	name     span
	text     span // decoded string, or a number's text
	kind     kind
	integral bool // a number without fraction or exponent
	valued   bool // the value was seen
	typed    bool // the annotation was seen
	typ      model.Type
}

type decoder struct {
	sc      scanner
	members []member
	hashes  []uint32 // of the members' names, to make find's scan cheap
	pk, rk  span
	keys    Keys
	seenKey [2]bool // PartitionKey, RowKey named, null included
}

// member handles one key of the body; the scanner is at its value.
func (d *decoder) member(key span) error {
	name := d.sc.text(key)
	annotation := bytes.HasSuffix(name, []byte(annotationSuffix))
	if annotation {
		key.to -= len(annotationSuffix)
		name = d.sc.text(key)
	}
	switch {
	case string(name) == model.TimestampName || bytes.HasPrefix(name, []byte("odata.")):
		return d.sc.skip(0)
	case annotation:
		return d.annotation(key)
	case string(name) == model.PartitionKeyName:
		return d.key(0, &d.pk, &d.keys.PartitionKey)
	case string(name) == model.RowKeyName:
		return d.key(1, &d.rk, &d.keys.RowKey)
	}
	return d.property(key)
}

// key reads the value of PartitionKey (i=0) or RowKey (i=1).
func (d *decoder) key(i int, sp *span, has *bool) error {
	field := [2]string{model.PartitionKeyName, model.RowKeyName}[i]
	if d.seenKey[i] {
		return &model.FieldError{Field: field, Err: model.ErrDuplicateProperty}
	}
	d.seenKey[i] = true
	k, text, _, err := d.sc.value()
	switch {
	case err != nil:
		return err
	case k == kindString:
		*sp, *has = text, true
	case k != kindNull:
		return &model.FieldError{Field: field, Err: model.ErrValueInvalid}
	}
	return nil
}

// annotation reads a "Name@odata.type" value for the property named by key.
func (d *decoder) annotation(key span) error {
	k, text, _, err := d.sc.value()
	if err != nil || k == kindNull {
		return err
	}
	if k != kindString {
		return &model.FieldError{Field: d.field(key), Err: ErrAnnotationInvalid}
	}
	t, err := model.ParseType(string(d.sc.text(text)))
	if err != nil {
		return &model.FieldError{Field: d.field(key), Value: model.Shorten(d.field(text)), Err: model.ErrTypeUnknown}
	}
	if name := d.sc.text(key); string(name) == model.PartitionKeyName || string(name) == model.RowKeyName {
		if t != model.TypeString {
			return &model.FieldError{Field: d.field(key), Value: t.String(), Err: model.ErrValueInvalid}
		}
		return nil
	}
	m, err := d.find(key)
	if err == nil && m.typed {
		err = &model.FieldError{Field: d.field(key), Err: model.ErrDuplicateProperty}
	}
	if err != nil {
		return err
	}
	m.typed, m.typ = true, t
	return nil
}

// field returns the text of sp as a string, for error messages.
func (d *decoder) field(sp span) string { return string(d.sc.text(sp)) }

// property reads the value of a custom property.
func (d *decoder) property(key span) error {
	k, text, integral, err := d.sc.value()
	if err != nil {
		return err
	}
	if k == kindNested {
		return &model.FieldError{Field: d.field(key), Err: ErrNestedValue}
	}
	m, err := d.find(key)
	if err == nil && m.valued {
		err = &model.FieldError{Field: d.field(key), Err: model.ErrDuplicateProperty}
	}
	if err != nil {
		return err
	}
	m.valued, m.kind, m.text, m.integral = true, k, text, integral
	return nil
}

// find returns the member named like key, adding it if it is new.
func (d *decoder) find(key span) (*member, error) {
	name := d.sc.text(key)
	h := hashName(name)
	for i, hi := range d.hashes {
		if hi == h && bytes.Equal(d.sc.text(d.members[i].name), name) {
			return &d.members[i], nil
		}
	}
	if len(d.members) >= maxMembers {
		return nil, model.ErrTooManyProperties
	}
	d.hashes = append(d.hashes, h)
	d.members = append(d.members, member{name: key})
	return &d.members[len(d.members)-1], nil
}

// hashName returns the FNV-1a hash of a name.
func hashName(name []byte) uint32 {
	h := uint32(2166136261)
	for _, c := range name {
		h = (h ^ uint32(c)) * 16777619
	}
	return h
}

// entity builds the decoded entity. All its strings are slices of one string holding
// the body's decoded text.
func (d *decoder) entity() (*model.Entity, error) {
	var all string
	if len(d.sc.buf) > 0 {
		// buf is never written again: the string shares its bytes, as strings.Builder does.
		all = unsafe.String(unsafe.SliceData(d.sc.buf), len(d.sc.buf))
	}
	at := func(sp span) string { return all[sp.from:sp.to] }
	e := &model.Entity{PartitionKey: at(d.pk), RowKey: at(d.rk)}
	e.Properties = make([]model.Property, 0, len(d.members))
	for i := range d.members {
		m := &d.members[i]
		if !m.valued || m.kind == kindNull {
			continue // null, or an annotation without a value: as if absent
		}
		v, err := m.value(at(m.text))
		if err != nil {
			return nil, &model.FieldError{Field: at(m.name), Value: model.Shorten(at(m.text)), Err: err}
		}
		e.Properties = append(e.Properties, model.Property{Name: at(m.name), Value: v})
	}
	return e, nil
}
