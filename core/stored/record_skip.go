package stored

import (
	"encoding/binary"
	"github.com/tabletopdb/tabletop/core/model"
	"math/bits"
)

// propertiesAt returns the offset of the first property of a stored form and how many
// properties it declares; an offset of -1 when the head is malformed. The head of almost
// every record, a Timestamp of nine bytes (any date after the third century) and fewer
// than 128 properties, is read without a call.
func propertiesAt(s string) (at int, count uint64) {
	if len(s) > 10 && s[0] == Version && s[9] < 0x80 && s[10] < 0x80 && load64(s[1:])&highBits == highBits {
		return 11, uint64(s[10])
	}
	return headAt(s)
}

// highBits is the high bit of each of a word's eight bytes.
const highBits = 0x8080808080808080

// headAt is propertiesAt for any head.
func headAt(s string) (at int, count uint64) {
	if len(s) == 0 || s[0] != Version {
		return -1, 0
	}
	i := skipUvarint(s, 1) // the Timestamp
	if i < 0 {
		return -1, 0
	}
	count, i = uvarintAt(s, i)
	if i < 0 || count > model.MaxProperties {
		return -1, 0
	}
	return i, count
}

// storedSize returns the size by Azure's formula (see Value.Size) of a value of type t
// whose stored form is v, as skipValue found it.
func storedSize(t model.Type, v string) int {
	switch t {
	case model.TypeString:
		_, at := lengthAt(v, 0)
		return 4 + 2*model.UTF16Len(v[at:])
	case model.TypeBinary:
		_, at := lengthAt(v, 0)
		return 4 + len(v) - at
	}
	return model.ValueOfBits(t, 0, "").Size()
}

// uvarintAt reads an unsigned varint at s[i:], as decoder.uvarint does, and returns it
// with the offset just past it; -1 when it is short or overflows 64 bits.
func uvarintAt(s string, i int) (uint64, int) {
	var v uint64
	for k := 0; k < binary.MaxVarintLen64 && i+k < len(s); k++ {
		c := s[i+k]
		if c < 0x80 {
			if k == binary.MaxVarintLen64-1 && c > 1 {
				return 0, -1
			}
			return v | uint64(c)<<(7*k), i + k + 1
		}
		v |= uint64(c&0x7f) << (7 * k)
	}
	return 0, -1
}

// lengthAt reads the length that starts a name or a String or Binary value at s[i:] and
// returns it with the offset just past it, checked to lie within s; -1 otherwise. A
// length under 128, one byte, is read without a call.
func lengthAt(s string, i int) (int, int) {
	n, at := uint64(0), i+1
	if i < len(s) && s[i] < 0x80 {
		n = uint64(s[i])
	} else if n, at = uvarintAt(s, i); at < 0 {
		return 0, -1
	}
	if n > uint64(len(s)-at) {
		return 0, -1
	}
	return int(n), at
}

// skipUvarint returns the offset just past the unsigned varint at s[i:], as uvarintAt
// does, without computing its value. It looks for the varint's last byte (the first
// without the high bit) eight bytes at a time: a Timestamp's varint is nine bytes long.
func skipUvarint(s string, i int) int {
	if i >= 0 && len(s)-i >= 8 {
		if m := ^load64(s[i:]) & 0x8080808080808080; m != 0 {
			return i + bits.TrailingZeros64(m)/8 + 1
		}
		if len(s)-i > 8 && s[i+8] < 0x80 {
			return i + 9
		}
	}
	end := min(len(s), i+binary.MaxVarintLen64)
	for k := i; k < end; k++ {
		if c := s[k]; c < 0x80 {
			if k-i == binary.MaxVarintLen64-1 && c > 1 {
				return -1
			}
			return k + 1
		}
	}
	return -1
}

// load64 returns the first eight bytes of s as a little-endian word.
func load64(s string) uint64 {
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// skipValue returns the offset just past a value of type t stored at s[i:], checked as
// decoder.value checks it but without building it; -1 when it is malformed.
func skipValue(s string, t model.Type, i int) int {
	switch t {
	case model.TypeString, model.TypeBinary:
		if i < len(s) && s[i] < 0x80 { // a length under 128, read without a call
			return fixedAt(s, i+1, int(s[i]))
		}
		n, at := lengthAt(s, i)
		if at < 0 {
			return -1
		}
		return at + n
	case model.TypeGuid:
		return fixedAt(s, i, 16)
	case model.TypeDouble:
		return fixedAt(s, i, 8)
	case model.TypeBoolean:
		if i >= len(s) || s[i] > 1 {
			return -1
		}
		return i + 1
	case model.TypeInt32:
		u, at := uvarintAt(s, i)
		if n := int64(u>>1) ^ -int64(u&1); n != int64(int32(n)) {
			return -1
		}
		return at
	case model.TypeInt64, model.TypeDateTime:
		return skipUvarint(s, i)
	}
	return -1
}

// fixedAt returns the offset just past n bytes at s[i:]; -1 when fewer are left.
func fixedAt(s string, i, n int) int {
	if n > len(s)-i {
		return -1
	}
	return i + n
}
