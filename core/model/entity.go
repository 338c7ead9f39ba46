package model

// Property is a named, typed value of an entity.
type Property struct {
	Name  string
	Value Value
}

// Entity is a row of a table: its primary key, the Timestamp the store set when it was last
// written, and its custom properties in the order they were first written.
type Entity struct {
	PartitionKey string
	RowKey       string
	Timestamp    DateTime
	Properties   []Property
}

// Get returns the value of the named custom property and whether the entity has it.
func (e *Entity) Get(name string) (Value, bool) {
	for _, p := range e.Properties {
		if p.Name == name {
			return p.Value, true
		}
	}
	return Value{}, false
}

// Set sets a custom property, replacing its value if the entity has it already.
func (e *Entity) Set(name string, v Value) {
	for i := range e.Properties {
		if e.Properties[i].Name == name {
			e.Properties[i].Value = v
			return
		}
	}
	e.Properties = append(e.Properties, Property{Name: name, Value: v})
}

// ETag returns the entity's ETag, derived from its Timestamp.
func (e *Entity) ETag() string { return ETagOf(e.Timestamp) }

// Size returns the entity's size by Azure's formula: 4 bytes + 2×len(PartitionKey+RowKey)
// + for each property 8 bytes + 2×len(name) + the value's size (see Value.Size), lengths
// counted in UTF-16 code units.
func (e *Entity) Size() int {
	n := 4 + 2*(UTF16Len(e.PartitionKey)+UTF16Len(e.RowKey))
	for _, p := range e.Properties {
		n += 8 + 2*UTF16Len(p.Name) + p.Value.Size()
	}
	return n
}

// Validate checks every rule of the data model that an entity must meet to be written:
// valid keys, at most 252 custom properties with valid, distinct names and valid values,
// and at most 1 MiB in all.
func (e *Entity) Validate() error {
	if err := ValidateKey(PartitionKeyName, e.PartitionKey); err != nil {
		return err
	}
	if err := ValidateKey(RowKeyName, e.RowKey); err != nil {
		return err
	}
	if len(e.Properties) > MaxCustomProperties {
		return ErrTooManyProperties
	}
	if err := validateProperties(e.Properties); err != nil {
		return err
	}
	if e.Size() > MaxEntityBytes {
		return ErrEntityTooLarge
	}
	return nil
}

func validateProperties(props []Property) error {
	var seen map[string]struct{} // names so far, when there are too many to compare each
	if len(props) > maxComparedNames {
		seen = make(map[string]struct{}, len(props))
	}
	for i, p := range props {
		if err := ValidatePropertyName(p.Name); err != nil {
			return &FieldError{Field: Shorten(p.Name), Value: Shorten(p.Name), Err: err}
		}
		if seenBefore(props[:i], seen, p.Name) {
			return &FieldError{Field: p.Name, Err: ErrDuplicateProperty}
		}
		if seen != nil {
			seen[p.Name] = struct{}{}
		}
		if err := p.Value.Validate(); err != nil {
			return &FieldError{Field: p.Name, Value: Shorten(p.Value.Text()), Err: err}
		}
	}
	return nil
}

// maxComparedNames is the most properties whose names are checked for duplicates by
// comparing each with those before it rather than through a map: fewer string
// comparisons than that cost less than hashing.
const maxComparedNames = 16

// seenBefore reports whether name is the name of one of before, looked up in seen when
// there is one.
func seenBefore(before []Property, seen map[string]struct{}, name string) bool {
	if seen != nil {
		_, dup := seen[name]
		return dup
	}
	for _, p := range before {
		if p.Name == name {
			return true
		}
	}
	return false
}

// Merge returns a copy of old with every property of patch set on it: the semantics of
// Merge Entity, which keeps the properties that patch does not name.
func Merge(old, patch *Entity) *Entity {
	out := &Entity{PartitionKey: old.PartitionKey, RowKey: old.RowKey}
	out.Properties = make([]Property, len(old.Properties), len(old.Properties)+len(patch.Properties))
	copy(out.Properties, old.Properties)
	for _, p := range patch.Properties {
		out.Set(p.Name, p.Value)
	}
	return out
}
