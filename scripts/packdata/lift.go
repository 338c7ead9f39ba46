package main

import (
	"fmt"
	"slices"
)

const (
	sectionType     = 1
	sectionImport   = 2
	sectionFunction = 3
	sectionStart    = 8
	sectionCode     = 10
	// segmentGap is the longest run of zeros Lift keeps inside a segment it writes, as
	// Go's linker does (a segment's header costs about 8 bytes).
	segmentGap = 8
)

// section is one section of a module: its id and body.
type section struct {
	id   byte
	body []byte
}

// Lift returns module with the longest column of its data (Go's findfunctab, see
// column.go) taken out of its data segments: the segments hold each value's increase
// over the one before instead (one byte each, in the column's own zeros), and a start
// function, run when the module is instantiated, writes the values back from them. An
// instance starts with the same memory, byte for byte, from a much smaller module for
// a Go program. A module without a data section or without a column is returned
// unchanged; one with a start function already is ErrUnsupported.
func Lift(module []byte) ([]byte, error) {
	secs, err := readSections(module)
	if err != nil {
		return nil, err
	}
	at := func(id byte) int { return slices.IndexFunc(secs, func(s section) bool { return s.id == id }) }
	if at(sectionStart) >= 0 {
		return nil, fmt.Errorf("%w: the module has a start function", ErrUnsupported)
	}
	data := at(sectionData)
	if slices.ContainsFunc(secs[data+1:], func(s section) bool { return s.id == sectionData }) {
		return nil, fmt.Errorf("%w: a second data section", ErrMalformed)
	}
	if data < 0 {
		return module, nil
	}
	segs, err := readSegments(secs[data].body)
	if err != nil || len(segs) == 0 {
		return module, err
	}
	base, last := segs[0].offset, segs[len(segs)-1]
	span := uint64(last.offset) + uint64(len(last.data)) - uint64(base)
	if span > maxImage {
		return module, nil
	}
	img := make([]byte, span)
	for _, s := range segs {
		copy(img[s.offset-base:], s.data)
	}
	c, ok := findColumn(img, base)
	if !ok {
		return module, nil
	}
	for i := range c.values {
		clear(img[c.offset-base+uint32(i)*c.stride:][:columnWidth])
	}
	copy(img[c.steps()-base:], c.stepBytes())
	return addStart(secs, imageSegments(img, base), startBody(c))
}

// addStart returns the module of secs with its data section holding segs and a start
// function of body (no parameters, no results).
func addStart(secs []section, segs []segment, body []byte) ([]byte, error) {
	at := func(id byte) int { return slices.IndexFunc(secs, func(s section) bool { return s.id == id }) }
	types, funcs, code := at(sectionType), at(sectionFunction), at(sectionCode)
	if types < 0 || funcs < 0 || code < 0 {
		return nil, fmt.Errorf("%w: no type, function or code section", ErrUnsupported)
	}
	typeIdx, typeBody, err := voidType(secs[types].body)
	if err != nil {
		return nil, err
	}
	imported := uint32(0)
	if i := at(sectionImport); i >= 0 {
		if imported, err = importedFuncs(secs[i].body); err != nil {
			return nil, err
		}
	}
	defined, funcBody, err := appendItem(secs[funcs].body, appendU32(nil, typeIdx))
	if err != nil {
		return nil, err
	}
	_, codeBody, err := appendItem(secs[code].body, append(appendU32(nil, uint32(len(body))), body...))
	if err != nil {
		return nil, err
	}
	secs = slices.Clone(secs)
	secs[types].body, secs[funcs].body, secs[code].body = typeBody, funcBody, codeBody
	secs[at(sectionData)].body = writeSegments(segs)
	if i := at(sectionDataCount); i >= 0 {
		secs[i].body = appendU32(nil, uint32(len(segs)))
	}
	start := section{sectionStart, appendU32(nil, imported+defined)}
	after := slices.IndexFunc(secs, func(s section) bool { // the sections that follow a start section
		return s.id == 9 || s.id == sectionDataCount || s.id == sectionCode || s.id == sectionData
	})
	secs = slices.Insert(secs, after, start)
	out := append([]byte(nil), magic...)
	for _, s := range secs {
		out = appendSection(out, s.id, s.body)
	}
	return out, nil
}

// startBody is the code of the start function that writes c's values: for each record i,
// it reads step i (a byte at c.steps()+i), zeroes it, adds it to the value and stores the
// value at c.offset+i×c.stride. The steps lie in the last bytes of the records, past
// every value the loop has yet to write, so no write reaches a step before it is read.
func startBody(c column) []byte {
	n, steps, first := uint32(len(c.values)), c.steps(), c.values[0]
	b := []byte{1, 2, 0x7f}                                                           // locals: i, v (i32)
	b = append(appendS32(append(b, 0x41), int32(first)), 0x21, 1)                     // v = first
	b = append(b, 0x02, 0x40, 0x03, 0x40)                                             // block, loop
	b = append(appendS32(append(b, 0x20, 0, 0x41), int32(n)), 0x46, 0x0d, 1)          // br_if i == n
	b = append(appendU32(append(b, 0x20, 0, 0x2d, 0), steps), 0x20, 1, 0x6a, 0x21, 1) // v += load8_u(steps+i)
	b = appendU32(append(b, 0x20, 0, 0x41, 0, 0x3a, 0), steps)                        // store8(steps+i, 0)
	b = append(appendS32(append(b, 0x20, 0, 0x41), int32(c.stride)), 0x6c, 0x20, 1)   // i×stride, v
	b = appendU32(append(b, 0x36, 0), c.offset)                                       // store(offset+i×stride, v)
	b = append(b, 0x20, 0, 0x41, 1, 0x6a, 0x21, 0)                                    // i++
	return append(b, 0x0c, 0, 0x0b, 0x0b, 0x0b)                                       // br loop; end; end; end
}

// imageSegments writes the memory image starting at base as segments, split where it
// holds more than segmentGap zeros in a row.
func imageSegments(img []byte, base uint32) []segment {
	var out []segment
	for i := 0; i < len(img); {
		if img[i] == 0 {
			i++
			continue
		}
		end, zeros := i, 0
		for j := i; j < len(img) && zeros <= segmentGap; j++ {
			if img[j] == 0 {
				zeros++
			} else {
				end, zeros = j+1, 0
			}
		}
		out = append(out, segment{offset: base + uint32(i), data: img[i:end]})
		i = end
	}
	return out
}

// readSections splits a module into its sections.
func readSections(module []byte) ([]section, error) {
	if len(module) < len(magic) || string(module[:len(magic)]) != string(magic) {
		return nil, fmt.Errorf("%w: no wasm header", ErrMalformed)
	}
	var secs []section
	for r := (reader{b: module[len(magic):]}); len(r.b) > 0; {
		id := r.byte()
		body := r.bytes(int(r.u32()))
		if r.err != nil {
			return nil, r.err
		}
		secs = append(secs, section{id, body})
	}
	return secs, nil
}
