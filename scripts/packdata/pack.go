package main

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
)

// MaxGap is the largest run of zeros packdata writes out to merge two segments: a
// segment's header costs a few bytes, a page of zeros almost nothing once compressed.
const MaxGap = 4096

var (
	// ErrMalformed means the input is not a well-formed WebAssembly module.
	ErrMalformed = errors.New("malformed wasm module")
	// ErrUnsupported means the data section holds a segment of a form packdata does not merge.
	ErrUnsupported = errors.New("unsupported data segment")
)

const (
	sectionData      = 11
	sectionDataCount = 12
	opI32Const       = 0x41
	opEnd            = 0x0b
)

var magic = []byte{0, 'a', 's', 'm', 1, 0, 0, 0}

// segment is one active data segment: bytes placed at offset in memory 0.
type segment struct {
	offset uint32
	data   []byte
}

// Pack returns module with its data segments merged wherever the gap between two is at
// most maxGap bytes; every other section is copied as it is. A module without a data
// section is returned unchanged.
func Pack(module []byte, maxGap int) ([]byte, error) {
	if !bytes.HasPrefix(module, magic) {
		return nil, fmt.Errorf("%w: no wasm header", ErrMalformed)
	}
	out := append([]byte(nil), magic...)
	var count int // segments written, for a data count section
	dataCountAt := -1
	seenData := false // a module has at most one: another's segments could fall in a gap filled with zeros
	for r := (reader{b: module[len(magic):]}); len(r.b) > 0; {
		id := r.byte()
		body := r.bytes(int(r.u32()))
		if r.err != nil {
			return nil, r.err
		}
		switch id {
		case sectionData:
			if seenData {
				return nil, fmt.Errorf("%w: a second data section", ErrMalformed)
			}
			seenData = true
			segs, err := readSegments(body)
			if err != nil {
				return nil, err
			}
			merged := merge(segs, maxGap)
			count = len(merged)
			out = appendSection(out, id, writeSegments(merged))
		case sectionDataCount:
			dataCountAt = len(out)
			out = appendSection(out, id, body)
		default:
			out = appendSection(out, id, body)
		}
	}
	if dataCountAt >= 0 { // it precedes the data section: write it again with the new count
		rest := skipSection(out[dataCountAt:])
		out = append(appendSection(out[:dataCountAt:dataCountAt], sectionDataCount, appendU32(nil, uint32(count))), rest...)
	}
	return out, nil
}

// readSegments reads the segments of a data section's body, sorted by offset.
func readSegments(body []byte) ([]segment, error) {
	r := reader{b: body}
	n := r.u32()
	segs := make([]segment, 0, min(int(n), len(body)/4))
	for i := uint32(0); i < n && r.err == nil; i++ {
		if flags := r.u32(); flags != 0 {
			return nil, fmt.Errorf("%w: segment %d has flags %d", ErrUnsupported, i, flags)
		}
		if op := r.byte(); op != opI32Const && r.err == nil {
			return nil, fmt.Errorf("%w: segment %d's offset is not an i32.const", ErrUnsupported, i)
		}
		offset := uint32(r.s32())
		if end := r.byte(); end != opEnd && r.err == nil {
			return nil, fmt.Errorf("%w: segment %d's offset is not a constant", ErrUnsupported, i)
		}
		segs = append(segs, segment{offset: offset, data: r.bytes(int(r.u32()))})
	}
	if r.err == nil && len(r.b) > 0 {
		r.err = fmt.Errorf("%w: %d bytes after the data segments", ErrMalformed, len(r.b))
	}
	if r.err != nil {
		return nil, r.err
	}
	slices.SortStableFunc(segs, func(a, b segment) int { return int(int64(a.offset) - int64(b.offset)) })
	for i := 1; i < len(segs); i++ {
		if uint64(segs[i-1].offset)+uint64(len(segs[i-1].data)) > uint64(segs[i].offset) {
			return nil, fmt.Errorf("%w: segments at %d and %d overlap", ErrUnsupported, segs[i-1].offset, segs[i].offset)
		}
	}
	return segs, nil
}

// merge joins sorted, non-overlapping segments separated by at most maxGap bytes.
func merge(segs []segment, maxGap int) []segment {
	var out []segment
	for _, s := range segs {
		if len(out) > 0 {
			last := &out[len(out)-1]
			if gap := uint64(s.offset) - uint64(last.offset) - uint64(len(last.data)); gap <= uint64(maxGap) {
				last.data = append(append(last.data, make([]byte, gap)...), s.data...)
				continue
			}
		}
		out = append(out, segment{offset: s.offset, data: append([]byte(nil), s.data...)})
	}
	return out
}

// writeSegments is the body of a data section holding segs.
func writeSegments(segs []segment) []byte {
	b := appendU32(nil, uint32(len(segs)))
	for _, s := range segs {
		b = append(b, 0, opI32Const)
		b = appendS32(b, int32(s.offset))
		b = append(b, opEnd)
		b = appendU32(b, uint32(len(s.data)))
		b = append(b, s.data...)
	}
	return b
}

// appendSection appends a section: its id, its size and body.
func appendSection(b []byte, id byte, body []byte) []byte {
	return append(appendU32(append(b, id), uint32(len(body))), body...)
}

// skipSection returns what follows the first section of b (b is well formed).
func skipSection(b []byte) []byte {
	r := reader{b: b[1:]}
	r.bytes(int(r.u32()))
	return r.b
}
