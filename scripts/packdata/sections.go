package main

import "fmt"

// voidType returns the index of the type section's first function type without
// parameters or results, and the section's body, with that type appended if it had none.
func voidType(body []byte) (uint32, []byte, error) {
	r := reader{b: body}
	n := r.u32()
	for i := uint32(0); i < n && r.err == nil; i++ {
		if form := r.byte(); form != 0x60 && r.err == nil {
			return 0, nil, fmt.Errorf("%w: type %d is not a function type", ErrUnsupported, i)
		}
		params, results := skipValTypes(&r), skipValTypes(&r)
		if params == 0 && results == 0 && r.err == nil {
			return i, body, nil
		}
	}
	if r.err != nil {
		return 0, nil, r.err
	}
	idx, out, err := appendItem(body, []byte{0x60, 0, 0})
	return idx, out, err
}

// skipValTypes reads a vector of value types (numbers, vectors and the two reference
// types, one byte each) and returns its length.
func skipValTypes(r *reader) uint32 {
	n := r.u32()
	for i := uint32(0); i < n && r.err == nil; i++ {
		if t := r.byte(); (t < 0x7b || t > 0x7f) && t != 0x70 && t != 0x6f && r.err == nil {
			r.err = fmt.Errorf("%w: value type %#x", ErrUnsupported, t)
		}
	}
	return n
}

// importedFuncs counts the functions an import section imports.
func importedFuncs(body []byte) (uint32, error) {
	r := reader{b: body}
	n, funcs := r.u32(), uint32(0)
	for i := uint32(0); i < n && r.err == nil; i++ {
		r.bytes(int(r.u32())) // module
		r.bytes(int(r.u32())) // name
		switch kind := r.byte(); kind {
		case 0: // function: a type index
			r.u32()
			funcs++
		case 1: // table: a reference type, limits
			r.byte()
			skipLimits(&r)
		case 2: // memory: limits
			skipLimits(&r)
		case 3: // global: a value type, mutability
			r.byte()
			r.byte()
		case 4: // tag: an attribute, a type index
			r.byte()
			r.u32()
		default:
			if r.err == nil {
				return 0, fmt.Errorf("%w: import kind %d", ErrUnsupported, kind)
			}
		}
	}
	if r.err == nil && len(r.b) > 0 {
		r.err = fmt.Errorf("%w: %d bytes after the imports", ErrMalformed, len(r.b))
	}
	return funcs, r.err
}

// skipLimits reads a table's or memory's limits: flags, a minimum and, with flag 1, a maximum.
func skipLimits(r *reader) {
	if flags := r.byte(); flags&1 != 0 {
		r.u32()
	}
	r.u32()
}

// appendItem returns the index of item in a vector section's body (its count, then its
// items) once appended, and the body with it.
func appendItem(body []byte, item []byte) (uint32, []byte, error) {
	r := reader{b: body}
	n := r.u32()
	if r.err != nil {
		return 0, nil, r.err
	}
	out := appendU32(nil, n+1)
	out = append(append(out, r.b...), item...)
	return n, out, nil
}
