package main

import (
	"bytes"
	"errors"
	"maps"
	"testing"
)

// module builds a wasm module: a memory section, then sections as given.
func module(sections ...[]byte) []byte {
	m := append([]byte(nil), magic...)
	m = appendSection(m, 5, []byte{1, 0, 1}) // one memory of one page
	for _, s := range sections {
		m = append(m, s...)
	}
	return m
}

// dataSection is a data section of active segments (offset, bytes).
func dataSection(segs ...segment) []byte { return appendSection(nil, sectionData, writeSegments(segs)) }

// image is the memory a module's data segments write (non-zero bytes by address), and
// its sections other than data and data count, in order.
func image(t *testing.T, m []byte) (map[uint32]byte, [][]byte, int) {
	t.Helper()
	mem := map[uint32]byte{}
	var other [][]byte
	n := 0
	for r := (reader{b: m[len(magic):]}); len(r.b) > 0; {
		id := r.byte()
		body := r.bytes(int(r.u32()))
		if r.err != nil {
			t.Fatal(r.err)
		}
		if id != sectionData && id != sectionDataCount {
			other = append(other, append([]byte{id}, body...))
			continue
		}
		if id == sectionDataCount {
			continue
		}
		segs, err := readSegments(body)
		if err != nil {
			t.Fatal(err)
		}
		n = len(segs)
		for _, s := range segs {
			for i, c := range s.data {
				if c != 0 {
					mem[s.offset+uint32(i)] = c
				} else {
					delete(mem, s.offset+uint32(i))
				}
			}
		}
	}
	return mem, other, n
}

func TestPack(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		custom := appendSection(nil, 0, []byte("\x04name\x00"))
		in := module(dataSection(
			segment{offset: 2000, data: []byte{7, 8}},
			segment{offset: 8, data: []byte{1, 2, 3}},
			segment{offset: 20, data: []byte{4}},
			segment{offset: 1 << 20, data: []byte{9}},
		), custom)
		out, err := Pack(in, 100)
		if err != nil {
			t.Fatal(err)
		}
		memIn, otherIn, _ := image(t, in)
		memOut, otherOut, n := image(t, out)
		if !maps.Equal(memIn, memOut) {
			t.Errorf("memory differs: %v, want %v", memOut, memIn)
		}
		if len(otherIn) != len(otherOut) || !bytes.Equal(bytes.Join(otherIn, nil), bytes.Join(otherOut, nil)) {
			t.Errorf("other sections changed")
		}
		if n != 3 { // [8, 21) merged; 2000 and 1<<20 too far
			t.Errorf("%d segments, want 3", n)
		}
	})
	t.Run("OK/DataCount", func(t *testing.T) {
		in := module(appendSection(nil, sectionDataCount, []byte{2}), dataSection(segment{0, []byte{1}}, segment{4, []byte{2}}))
		out, err := Pack(in, 16)
		if err != nil {
			t.Fatal(err)
		}
		want := module(appendSection(nil, sectionDataCount, []byte{1}), dataSection(segment{0, []byte{1, 0, 0, 0, 2}}))
		if !bytes.Equal(out, want) {
			t.Errorf("Pack = %x, want %x", out, want)
		}
	})
	t.Run("OK/NoData", func(t *testing.T) {
		in := module()
		if out, err := Pack(in, MaxGap); err != nil || !bytes.Equal(out, in) {
			t.Errorf("Pack = %x, %v; want the module unchanged", out, err)
		}
	})
	t.Run("ErrMalformed", func(t *testing.T) {
		good := module(dataSection(segment{0, []byte{1}}))
		for name, m := range map[string][]byte{
			"header":    []byte("\x00asm\x02\x00\x00\x00"),
			"truncated": good[:len(good)-1],
			"size":      append(module(), sectionData, 0xff, 0xff, 0xff, 0xff, 0x7f),
			"trailing":  module(appendSection(nil, sectionData, append(writeSegments([]segment{{0, []byte{1}}}), 0))),
			"twice":     module(dataSection(segment{0, []byte{1}}), dataSection(segment{1, []byte{2}})),
		} {
			if _, err := Pack(m, MaxGap); !errors.Is(err, ErrMalformed) {
				t.Errorf("%s: err = %v, want ErrMalformed", name, err)
			}
		}
	})
	t.Run("ErrUnsupported", func(t *testing.T) {
		for name, body := range map[string][]byte{
			"passive":  {1, 1, 1, 9},
			"memory":   {1, 2, 0, opI32Const, 0, opEnd, 1, 9},
			"global":   {1, 0, 0x23, 0, opEnd, 1, 9},
			"overlap":  writeSegments([]segment{{0, []byte{1, 2}}, {1, []byte{3}}}),
			"constant": {1, 0, opI32Const, 0, opI32Const, 1, 9},
		} {
			if _, err := Pack(module(appendSection(nil, sectionData, body)), MaxGap); !errors.Is(err, ErrUnsupported) {
				t.Errorf("%s: err = %v, want ErrUnsupported", name, err)
			}
		}
	})
}

// FuzzPack: on any input Pack either fails with ErrMalformed or ErrUnsupported, or
// returns a module whose data writes the same memory and whose other sections are the
// same.
func FuzzPack(f *testing.F) {
	f.Add(module(dataSection(segment{8, []byte{1, 2}}, segment{40, []byte{3}})), 16)
	f.Add(module(dataSection(segment{1 << 30, []byte{1}}, segment{0, []byte{0, 5}})), 0)
	f.Add(module(appendSection(nil, sectionDataCount, []byte{1}), dataSection(segment{3, []byte{4}})), 4096)
	f.Fuzz(func(t *testing.T, m []byte, gap int) {
		gap = min(max(gap, 0), 1<<16)
		out, err := Pack(m, gap)
		if err != nil {
			if !errors.Is(err, ErrMalformed) && !errors.Is(err, ErrUnsupported) {
				t.Fatalf("Pack: %v", err)
			}
			return
		}
		memIn, otherIn, _ := image(t, m)
		memOut, otherOut, _ := image(t, out)
		if !maps.Equal(memIn, memOut) || !bytes.Equal(bytes.Join(otherIn, []byte{0xff}), bytes.Join(otherOut, []byte{0xff})) {
			t.Fatalf("Pack changed the module's meaning:\n in %x\nout %x", m, out)
		}
	})
}
