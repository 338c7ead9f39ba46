package core

// valueAt reads the value of type t stored at s[i:] and returns it with the offset just
// past it; -1 when it is malformed: short, or holding what no encoder writes (an unknown
// type, a Boolean other than 0 or 1, an Int32 out of range). It needs no decoder and, for
// the fixed-size and integer types, no call: a filter reads one value per candidate
// entity.
func valueAt(s string, t Type, i int) (Value, int) {
	switch t {
	case TypeInt32, TypeInt64:
		u, at := uvarintAt(s, i)
		n := int64(u>>1) ^ -int64(u&1)
		if t == TypeInt32 && n != int64(int32(n)) {
			return Value{}, -1
		}
		return Value{typ: t, num: uint64(n)}, at
	case TypeDouble:
		if len(s)-i < 8 {
			return Value{}, -1
		}
		return Value{typ: t, num: load64(s[i:])}, i + 8
	case TypeBoolean:
		if i >= len(s) || s[i] > 1 {
			return Value{}, -1
		}
		return Value{typ: t, num: uint64(s[i])}, i + 1
	case TypeDateTime:
		u, at := uvarintAt(s, i)
		return Value{typ: t, num: u}, at
	case TypeString, TypeBinary:
		n, at := lengthAt(s, i)
		if at < 0 {
			return Value{}, -1
		}
		return Value{typ: t, str: s[at : at+n]}, at + n
	case TypeGuid:
		if len(s)-i < 16 {
			return Value{}, -1
		}
		return Value{typ: t, str: s[i : i+16]}, i + 16
	}
	return Value{}, -1
}
