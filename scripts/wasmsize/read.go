package main

import (
	"encoding/binary"
	"fmt"
)

// reader reads LEB128 numbers and strings; the first error sticks.
type reader struct {
	b   []byte
	err error
}

func (r *reader) u() uint64 {
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.fail()
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *reader) bytes(n uint64) []byte {
	if n > uint64(len(r.b)) {
		r.fail()
		return nil
	}
	v := r.b[:n]
	r.b = r.b[n:]
	return v
}

func (r *reader) fail() {
	if r.err == nil {
		r.err = fmt.Errorf("%w: unexpected end or bad number", ErrMalformed)
	}
	r.b = nil
}

// importedFuncs counts the functions an import section imports.
func importedFuncs(body []byte) (uint64, error) {
	r := reader{b: body}
	var funcs uint64
	for n := r.u(); n > 0 && r.err == nil; n-- {
		r.bytes(r.u())
		r.bytes(r.u())
		switch kind := r.bytes(1); {
		case r.err != nil:
		case kind[0] == 0:
			r.u()
			funcs++
		case kind[0] == 1 || kind[0] == 2:
			if kind[0] == 1 {
				r.bytes(1)
			}
			if flags := r.u(); flags&1 != 0 {
				r.u()
			}
			r.u()
		case kind[0] == 3:
			r.bytes(2)
		default:
			return 0, fmt.Errorf("%w: import kind %d", ErrMalformed, kind[0])
		}
	}
	return funcs, r.err
}

// bodySizes is the size of each function body of a code section.
func bodySizes(body []byte) ([]int, error) {
	r := reader{b: body}
	n := r.u()
	sizes := make([]int, 0, min(n, uint64(len(body))))
	for ; n > 0 && r.err == nil; n-- {
		sizes = append(sizes, len(r.bytes(r.u())))
	}
	return sizes, r.err
}

// readNames adds the function names of a custom section, if it is the name section.
func readNames(body []byte, names map[uint64]string) error {
	r := reader{b: body}
	if string(r.bytes(r.u())) != "name" {
		return nil
	}
	for len(r.b) > 0 && r.err == nil {
		id := r.bytes(1)
		sub := reader{b: r.bytes(r.u())}
		if r.err != nil || id[0] != 1 {
			continue
		}
		for n := sub.u(); n > 0 && sub.err == nil; n-- {
			idx := sub.u()
			names[idx] = string(sub.bytes(sub.u()))
		}
		if sub.err != nil {
			return sub.err
		}
	}
	return r.err
}
