package core

// valueAt reads the value of type t stored at s[i:], as decoder.value does and with the
// same checks, but without a decoder and, for the fixed-size and integer types, without
// a call: a filter reads one value per candidate entity. ok is false when the value is
// malformed.
func valueAt(s string, t Type, i int) (v Value, ok bool) {
	switch t {
	case TypeInt32, TypeInt64:
		u, at := uvarintAt(s, i)
		n := int64(u>>1) ^ -int64(u&1)
		if at < 0 || t == TypeInt32 && n != int64(int32(n)) {
			return Value{}, false
		}
		return Value{typ: t, num: uint64(n)}, true
	case TypeDouble:
		if len(s)-i < 8 {
			return Value{}, false
		}
		return Value{typ: t, num: load64(s[i:])}, true
	case TypeBoolean:
		if i >= len(s) || s[i] > 1 {
			return Value{}, false
		}
		return Value{typ: t, num: uint64(s[i])}, true
	case TypeDateTime:
		u, at := uvarintAt(s, i)
		return Value{typ: t, num: u}, at >= 0
	case TypeString, TypeBinary:
		n, at := lengthAt(s, i)
		if at < 0 {
			return Value{}, false
		}
		return Value{typ: t, str: s[at : at+n]}, true
	case TypeGuid:
		if len(s)-i < 16 {
			return Value{}, false
		}
		return Value{typ: t, str: s[i : i+16]}, true
	}
	return Value{}, false
}
