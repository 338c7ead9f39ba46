package stored

import (
	"encoding/binary"
	"errors"
	"github.com/tabletopdb/tabletop/core/model"
	"unsafe"
)

// The stored form of an entity (the buntdb value; the keys live in the buntdb key):
//
//	version byte (1) · uvarint Timestamp ticks · uvarint property count ·
//	per property: type byte · uvarint name length · name · value
//
// where a value is: String, Binary: uvarint length and bytes; Guid: 16 bytes; Boolean: one
// byte; Int32, Int64: zig-zag varint; Double: 8 bytes little-endian IEEE; DateTime: uvarint
// ticks. Decoding allocates one string per name and per String or Binary value.

// Version is the version byte that starts every entity record, and deletion records too.
const Version = 1

// ErrCorrupt means a stored record could not be decoded.
var ErrCorrupt = errors.New("stored entity is corrupt")

// EncodeEntity returns the stored form of an entity's Timestamp and properties.
func EncodeEntity(ts model.DateTime, props []model.Property) string {
	_, data := EncodeKeyed(ts, props)
	return data
}

// EncodeKeyed returns a key, the concatenation of keyParts, and the stored form of an
// entity's Timestamp and properties, both in one allocation, the stored form right after
// the key: a scan, which reads an entity's key and then its stored form, finds them side
// by side in memory. The bytes
// become the strings without a copy (as strings.Builder does): nothing writes to them
// once encoded.
func EncodeKeyed(ts model.DateTime, props []model.Property, keyParts ...string) (string, string) {
	b, keyLen := AppendKeyed(ts, props, keyParts...)
	s := unsafe.String(unsafe.SliceData(b), len(b))
	return s[:keyLen], s[keyLen:]
}

// AppendKeyed returns the bytes EncodeKeyed makes strings of, in a new allocation of
// their size, and the key's length.
func AppendKeyed(ts model.DateTime, props []model.Property, keyParts ...string) ([]byte, int) {
	keyLen := 0
	for _, p := range keyParts {
		keyLen += len(p)
	}
	n := keyLen + 12
	for _, p := range props {
		n += 4 + len(p.Name) + 9 + len(p.Value.Raw())
	}
	b := make([]byte, 0, n)
	for _, p := range keyParts {
		b = append(b, p...)
	}
	b = append(b, Version)
	b = binary.AppendUvarint(b, uint64(ts))
	b = binary.AppendUvarint(b, uint64(len(props)))
	for _, p := range props {
		b = append(b, byte(p.Value.Type()))
		b = binary.AppendUvarint(b, uint64(len(p.Name)))
		b = append(b, p.Name...)
		b = appendValue(b, p.Value)
	}
	return b, keyLen
}

func appendValue(b []byte, v model.Value) []byte {
	switch v.Type() {
	case model.TypeString, model.TypeBinary:
		b = binary.AppendUvarint(b, uint64(len(v.Raw())))
		return append(b, v.Raw()...)
	case model.TypeGuid:
		return append(b, v.Raw()...)
	case model.TypeBoolean:
		return append(b, byte(v.Bits()))
	case model.TypeInt32, model.TypeInt64:
		return binary.AppendVarint(b, int64(v.Bits()))
	case model.TypeDouble:
		return binary.LittleEndian.AppendUint64(b, v.Bits())
	default: // TypeDateTime
		return binary.AppendUvarint(b, v.Bits())
	}
}

// DecodeEntity rebuilds an entity from its keys and stored form. A record that is short,
// has bytes left over, or holds a value no encoder writes (an unknown type, a Boolean
// other than 0 or 1, an Int32 out of range) is ErrCorrupt.
func DecodeEntity(pk, rk, data string) (*model.Entity, error) {
	d := decoder{s: data}
	if d.byte() != Version {
		return nil, ErrCorrupt
	}
	e := &model.Entity{PartitionKey: pk, RowKey: rk, Timestamp: model.DateTime(d.uvarint())}
	count := d.uvarint()
	if count > model.MaxProperties {
		return nil, ErrCorrupt
	}
	e.Properties = make([]model.Property, count)
	for i := range e.Properties {
		typ := model.Type(d.byte())
		name := d.bytes(d.uvarint())
		e.Properties[i] = model.Property{Name: name, Value: d.value(typ)}
	}
	if d.err || len(d.s) != 0 {
		return nil, ErrCorrupt
	}
	return e, nil
}

// decoder reads the stored form; any short or malformed read sets err.
type decoder struct {
	s   string
	err bool
}

func (d *decoder) byte() byte {
	if len(d.s) == 0 {
		d.err = true
		return 0
	}
	c := d.s[0]
	d.s = d.s[1:]
	return c
}

// uvarint reads an unsigned varint as binary.Uvarint does, from the string in place.
func (d *decoder) uvarint() uint64 {
	var v uint64
	for i := 0; i < len(d.s) && i < binary.MaxVarintLen64; i++ {
		c := d.s[i]
		if c < 0x80 {
			if i == binary.MaxVarintLen64-1 && c > 1 {
				break // overflows 64 bits
			}
			d.s = d.s[i+1:]
			return v | uint64(c)<<(7*i)
		}
		v |= uint64(c&0x7f) << (7 * i)
	}
	d.err = true
	return 0
}

func (d *decoder) bytes(n uint64) string {
	if n > uint64(len(d.s)) {
		d.err = true
		return ""
	}
	s := d.s[:n]
	d.s = d.s[n:]
	return s
}

// value reads a value of type t (see valueAt).
func (d *decoder) value(t model.Type) model.Value {
	v, end := valueAt(d.s, t, 0)
	if end < 0 {
		d.err = true
		return model.Value{}
	}
	d.s = d.s[end:]
	return v
}

// AppendString appends s in the stored form of a string: its uvarint length, then its
// bytes. Records other than entities (a table's) are sequences of such strings.
func AppendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// ReadString reads the string that AppendString stored at the start of s and returns it
// and the rest of s; ok is false, and rest "", when s is short or its length malformed.
func ReadString(s string) (v, rest string, ok bool) {
	d := decoder{s: s}
	v = d.bytes(d.uvarint())
	if d.err {
		return "", "", false
	}
	return v, d.s, true
}
