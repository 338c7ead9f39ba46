package stored

import "github.com/tabletopdb/tabletop/core/model"

// valueAt reads the value of type t stored at s[i:] and returns it with the offset just
// past it; -1 when it is malformed: short, or holding what no encoder writes (an unknown
// type, a Boolean other than 0 or 1, an Int32 out of range). It needs no decoder and, for
// the fixed-size and integer types, no call: a filter reads one value per candidate
// entity.
func valueAt(s string, t model.Type, i int) (model.Value, int) {
	switch t {
	case model.TypeInt32, model.TypeInt64:
		u, at := uvarintAt(s, i)
		n := int64(u>>1) ^ -int64(u&1)
		if t == model.TypeInt32 && n != int64(int32(n)) {
			return model.Value{}, -1
		}
		return model.ValueOfBits(t, uint64(n), ""), at
	case model.TypeDouble:
		if len(s)-i < 8 {
			return model.Value{}, -1
		}
		return model.ValueOfBits(t, load64(s[i:]), ""), i + 8
	case model.TypeBoolean:
		if i >= len(s) || s[i] > 1 {
			return model.Value{}, -1
		}
		return model.ValueOfBits(t, uint64(s[i]), ""), i + 1
	case model.TypeDateTime:
		u, at := uvarintAt(s, i)
		return model.ValueOfBits(t, u, ""), at
	case model.TypeString, model.TypeBinary:
		n, at := lengthAt(s, i)
		if at < 0 {
			return model.Value{}, -1
		}
		return model.ValueOfBits(t, 0, s[at:at+n]), at + n
	case model.TypeGuid:
		if len(s)-i < 16 {
			return model.Value{}, -1
		}
		return model.ValueOfBits(t, 0, s[i:i+16]), i + 16
	}
	return model.Value{}, -1
}
