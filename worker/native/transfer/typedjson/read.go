package typedjson

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/goccy/go-json/jsontext"
	"github.com/tabletopdb/tabletop/core/model"
)

// ErrNotObject is returned when an entity is expected and the next value is not an object.
var ErrNotObject = errors.New("entity is not a JSON object")

// ErrValueKind is returned for a property whose JSON value is an object or an array.
var ErrValueKind = errors.New("property value is not a string, number or boolean")

const annotation = "@odata.type"

// member is one property read from an object, before its annotation is known.
type member struct {
	name string
	kind jsontext.Kind
	text string
}

// Object is a flat JSON object read member by member: its values in order with their
// JSON kinds and raw text, and the type annotations seen.
type Object struct {
	members []member
	types   []member // name: the annotated property's name; text: its type's name
}

// ReadEntity reads the next value of dec, which must be an object, as an entity.
func ReadEntity(dec *jsontext.Decoder) (*model.Entity, error) {
	var o Object
	if err := o.read(dec, false); err != nil {
		return nil, err
	}
	return o.Entity()
}

// ReadObject reads the next value of dec, which must be a flat object (no member's value is
// an object or an array).
func ReadObject(dec *jsontext.Decoder) (*Object, error) { return readObject(dec, false) }

func readObject(dec *jsontext.Decoder, skipNested bool) (*Object, error) {
	o := &Object{}
	if err := o.read(dec, skipNested); err != nil {
		return nil, err
	}
	return o, nil
}

// read fills o with the next value of dec.
func (o *Object) read(dec *jsontext.Decoder, skipNested bool) error {
	if dec.PeekKind() != '{' {
		if err := dec.SkipValue(); err != nil {
			return err
		}
		return ErrNotObject
	}
	if _, err := dec.ReadToken(); err != nil {
		return err
	}
	o.members = make([]member, 0, 8)
	for dec.PeekKind() != '}' {
		name, m, err := readMember(dec, skipNested)
		if err != nil {
			return err
		}
		switch {
		case m == nil:
		case strings.HasSuffix(name, annotation):
			o.types = append(o.types, member{name: strings.TrimSuffix(name, annotation), text: m.text})
		default:
			o.members = append(o.members, *m)
		}
	}
	_, err := dec.ReadToken()
	return err
}

// typeOf returns the type annotation of the named property, "" when it has none.
func (o *Object) typeOf(name string) string {
	for _, t := range o.types {
		if t.name == name {
			return t.text
		}
	}
	return ""
}

// Text returns the raw text of the named member (a string unquoted) and whether it is there.
func (o *Object) Text(name string) (string, bool) {
	for _, m := range o.members {
		if m.name == name {
			return m.text, true
		}
	}
	return "", false
}

// Entity types each member by its annotation, or its JSON kind, and makes the entity.
func (o *Object) Entity() (*model.Entity, error) {
	e := &model.Entity{Properties: make([]model.Property, 0, len(o.members))}
	for _, m := range o.members {
		v, err := typed(m, o.typeOf(m.name))
		if err != nil {
			return nil, &model.FieldError{Field: m.name, Value: model.Shorten(m.text), Err: err}
		}
		switch m.name {
		case model.PartitionKeyName:
			e.PartitionKey = v.Str()
		case model.RowKeyName:
			e.RowKey = v.Str()
		case model.TimestampName:
			e.Timestamp = v.DateTime()
		default:
			e.Properties = append(e.Properties, model.Property{Name: m.name, Value: v})
		}
	}
	return e, nil
}

// readMember reads one name and value; m is nil for a member to skip (odata.*, null).
func readMember(dec *jsontext.Decoder, skipNested bool) (string, *member, error) {
	tok, err := dec.ReadToken()
	if err != nil {
		return "", nil, err
	}
	name := tok.String()
	if strings.HasPrefix(name, "odata.") {
		return name, nil, dec.SkipValue()
	}
	switch k := dec.PeekKind(); k {
	case '{', '[':
		if err := dec.SkipValue(); err != nil || skipNested {
			return name, nil, err
		}
		return "", nil, fmt.Errorf("property %q: %w", name, ErrValueKind)
	case 'n':
		_, err := dec.ReadToken()
		return name, nil, err
	}
	tok, err = dec.ReadToken()
	if err != nil {
		return "", nil, err
	}
	return name, &member{name: name, kind: tok.Kind(), text: tok.String()}, nil
}

// typed parses m's text as the type named by annotation, or as its JSON kind suggests.
func typed(m member, annotation string) (model.Value, error) {
	switch m.name {
	case model.PartitionKeyName, model.RowKeyName:
		if m.kind != '"' || (annotation != "" && annotation != "Edm.String") {
			return model.Value{}, model.ErrValueInvalid
		}
		return model.StringValue(m.text), nil
	case model.TimestampName:
		annotation = "Edm.DateTime"
	}
	if annotation == "" {
		return untyped(m)
	}
	t, err := model.ParseType(annotation)
	if err != nil {
		return model.Value{}, err
	}
	if !kindFits(t, m.kind) {
		return model.Value{}, model.ErrValueInvalid
	}
	return model.ParseValue(t, m.text)
}

// kindFits reports whether a JSON value of kind k may carry a value of type t.
func kindFits(t model.Type, k jsontext.Kind) bool {
	switch t {
	case model.TypeBoolean:
		return k == 't' || k == 'f'
	case model.TypeInt32, model.TypeInt64, model.TypeDouble:
		return k == '0' || k == '"'
	default:
		return k == '"'
	}
}

// untyped types an unannotated value: a string, a boolean, an Int32 or else a Double.
func untyped(m member) (model.Value, error) {
	switch m.kind {
	case '"':
		return model.ParseValue(model.TypeString, m.text)
	case 't', 'f':
		return model.BoolValue(m.kind == 't'), nil
	}
	if n, err := strconv.ParseInt(m.text, 10, 32); err == nil {
		return model.Int32Value(int32(n)), nil
	}
	return model.ParseValue(model.TypeDouble, m.text)
}

// ReadObjectSkipping reads the next object of dec like ReadObject, but skips members whose
// values are objects or arrays instead of failing on them.
func ReadObjectSkipping(dec *jsontext.Decoder) (*Object, error) {
	return readObject(dec, true)
}

// Decode rewrites the text of each member annotated with typeName through fn, for stores
// that keep a type in another form.
func (o *Object) Decode(typeName string, fn func(string) (string, error)) error {
	for i, m := range o.members {
		if o.typeOf(m.name) != typeName {
			continue
		}
		text, err := fn(m.text)
		if err != nil {
			return &model.FieldError{Field: m.name, Value: model.Shorten(m.text), Err: err}
		}
		o.members[i].text = text
	}
	return nil
}
