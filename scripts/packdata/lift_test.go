package main

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"maps"
	"testing"
)

// goModule is a module shaped as Go writes one: a type section without a () → () type,
// two imported functions and a memory, one defined function, a data count, and data
// holding a findfunctab-like table of records (a uint32 growing by one every 16
// records, then 16 zeros) between other bytes, one segment straddling its end.
func goModule(records int) []byte {
	types := appendSection(nil, sectionType, []byte{1, 0x60, 1, 0x7f, 1, 0x7f})
	imports := appendSection(nil, sectionImport, []byte{3,
		2, 'g', 'o', 1, 'a', 0, 0,
		2, 'g', 'o', 1, 'm', 2, 0, 40,
		2, 'g', 'o', 1, 'b', 0, 0,
	})
	funcs := appendSection(nil, sectionFunction, []byte{1, 0})
	code := appendSection(nil, sectionCode, []byte{1, 4, 0, 0x20, 0, 0x0b})
	segs := []segment{{offset: 1000, data: []byte("before the table")}}
	const table = 4096
	for i := range records {
		var rec [columnWidth]byte
		binary.LittleEndian.PutUint32(rec[:], uint32(i/16))
		if i/16 > 0 {
			segs = append(segs, segment{offset: uint32(table + i*columnStride), data: bytes.TrimRight(rec[:], "\x00")})
		}
	}
	last := &segs[len(segs)-1]
	last.data = append(append(last.data, make([]byte, columnStride-len(last.data)+3)...), "after"...)
	m := append([]byte(nil), magic...)
	for _, s := range [][]byte{types, imports, funcs, appendSection(nil, sectionDataCount, appendU32(nil, uint32(len(segs)))), code, dataSection(segs...)} {
		m = append(m, s...)
	}
	return m
}

// instantiate is the memory (non-zero bytes by address) an instance of m starts with:
// its data segments, then its start function run by a small interpreter of the
// instructions Lift writes.
func instantiate(t *testing.T, m []byte) map[uint32]byte {
	t.Helper()
	mem, _, _ := image(t, m)
	secs, err := readSections(m)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range secs {
		if s.id != sectionStart {
			continue
		}
		r := reader{b: s.body}
		fn := r.u32()
		imported := uint32(0)
		for _, s := range secs {
			if s.id == sectionImport {
				imported, _ = importedFuncs(s.body)
			}
		}
		for _, c := range secs {
			if c.id == sectionCode {
				if err := run(functionBody(t, c.body, fn-imported), mem); err != nil {
					t.Fatalf("start function: %v", err)
				}
			}
		}
	}
	return mem
}

// functionBody is the body of the code section's function i.
func functionBody(t *testing.T, code []byte, i uint32) []byte {
	t.Helper()
	r := reader{b: code}
	n := r.u32()
	for k := uint32(0); k < n && r.err == nil; k++ {
		body := r.bytes(int(r.u32()))
		if k == i {
			return body
		}
	}
	t.Fatalf("no function %d in the code section", i)
	return nil
}

// run interprets a function body of i32 locals and the instructions Lift writes, on mem.
func run(body []byte, mem map[uint32]byte) error {
	r := reader{b: body}
	var locals []uint32
	for g := r.u32(); g > 0; g-- {
		n := r.u32()
		if r.byte() != 0x7f {
			return errors.New("a local that is not an i32")
		}
		locals = append(locals, make([]uint32, n)...)
	}
	code := r.b
	type label struct {
		loop  bool
		start int // after the block or loop instruction
	}
	var labels []label
	var stack []uint32
	pop := func() uint32 { v := stack[len(stack)-1]; stack = stack[:len(stack)-1]; return v }
	// skip moves past the end of the innermost open block from pc.
	skip := func(pc int) int {
		depth := 0
		for sr := (reader{b: code[pc:]}); ; {
			op := sr.byte()
			switch op {
			case 0x02, 0x03:
				sr.byte()
				depth++
			case 0x0b:
				if depth == 0 {
					return len(code) - len(sr.b)
				}
				depth--
			case 0x20, 0x21, 0x0c, 0x0d:
				sr.u32()
			case 0x41:
				sr.s32()
			case 0x2d, 0x3a, 0x36:
				sr.u32()
				sr.u32()
			}
			if sr.err != nil {
				return len(code)
			}
		}
	}
	branch := func(pc int, depth uint32) int {
		l := labels[len(labels)-1-int(depth)]
		if l.loop {
			labels = labels[:len(labels)-int(depth)]
			return l.start
		}
		labels = labels[:len(labels)-1-int(depth)]
		return skip(l.start)
	}
	load := func(a uint32) uint32 { return uint32(mem[a]) }
	store := func(a, v uint32) {
		if v == 0 {
			delete(mem, a)
		} else {
			mem[a] = byte(v)
		}
	}
	for steps, pc := 0, 0; pc < len(code); steps++ {
		if steps > 1<<24 {
			return errors.New("runs too long")
		}
		ir := reader{b: code[pc:]}
		op := ir.byte()
		switch op {
		case 0x02, 0x03:
			ir.byte()
			labels = append(labels, label{loop: op == 0x03, start: len(code) - len(ir.b)})
		case 0x0b:
			if len(labels) == 0 {
				return nil // the function's end
			}
			labels = labels[:len(labels)-1]
		case 0x0c:
			pc = branch(pc, ir.u32())
			continue
		case 0x0d:
			d := ir.u32()
			if pop() != 0 {
				pc = branch(pc, d)
				continue
			}
		case 0x20:
			stack = append(stack, locals[ir.u32()])
		case 0x21:
			locals[ir.u32()] = pop()
		case 0x41:
			stack = append(stack, uint32(ir.s32()))
		case 0x46:
			b, a := pop(), pop()
			stack = append(stack, map[bool]uint32{true: 1}[a == b])
		case 0x6a:
			stack = append(stack, pop()+pop())
		case 0x6c:
			stack = append(stack, pop()*pop())
		case 0x2d:
			ir.u32()
			off := ir.u32()
			stack = append(stack, load(pop()+off))
		case 0x3a, 0x36:
			ir.u32()
			off := ir.u32()
			v, a := pop(), pop()+off
			store(a, v)
			if op == 0x36 {
				for k := uint32(1); k < 4; k++ {
					store(a+k, v>>(8*k))
				}
			}
		default:
			return fmt.Errorf("instruction %#x", op)
		}
		if ir.err != nil {
			return ir.err
		}
		pc = len(code) - len(ir.b)
	}
	return errors.New("no end")
}

func TestLift(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		in := goModule(3000)
		out, err := Lift(in)
		if err != nil {
			t.Fatal(err)
		}
		if want, got := instantiate(t, in), instantiate(t, out); !maps.Equal(want, got) {
			t.Errorf("memory differs: %d non-zero bytes, want %d", len(got), len(want))
		}
		if len(out) >= len(in)/3 {
			t.Errorf("%d bytes from %d, want less than a third", len(out), len(in))
		}
		secs, _ := readSections(out)
		var ids []byte
		for _, s := range secs {
			ids = append(ids, s.id)
		}
		if want := []byte{sectionType, sectionImport, sectionFunction, sectionStart, sectionDataCount, sectionCode, sectionData}; !bytes.Equal(ids, want) {
			t.Errorf("sections %v, want %v", ids, want)
		}
		if start := secs[3].body; !bytes.Equal(start, []byte{3}) { // after 2 imported and 1 defined
			t.Errorf("start function %v, want 3", start)
		}
		if _, again, err := voidType(secs[0].body); err != nil || !bytes.Equal(again, secs[0].body) {
			t.Errorf("no () → () type: %x", secs[0].body)
		}
		if packed, err := Pack(out, MaxGap); err != nil || !maps.Equal(instantiate(t, packed), instantiate(t, in)) {
			t.Errorf("Pack after Lift: %v, or the memory differs", err)
		}
	})
	t.Run("OK/Unchanged", func(t *testing.T) {
		for name, m := range map[string][]byte{
			"no data":   module(),
			"no column": goModule(minColumn / 2),
			"empty":     module(dataSection()),
		} {
			if out, err := Lift(m); err != nil || !bytes.Equal(out, m) {
				t.Errorf("%s: Lift = %v; want the module unchanged", name, err)
			}
		}
	})
	t.Run("ErrMalformed", func(t *testing.T) {
		good := goModule(3000)
		for name, m := range map[string][]byte{
			"header":    []byte("\x00asm\x02\x00\x00\x00"),
			"truncated": good[:len(good)-1],
			"twice":     append(goModule(3000), dataSection(segment{1, []byte{2}})...),
		} {
			if _, err := Lift(m); !errors.Is(err, ErrMalformed) {
				t.Errorf("%s: err = %v, want ErrMalformed", name, err)
			}
		}
	})
	t.Run("ErrUnsupported", func(t *testing.T) {
		for name, m := range map[string][]byte{
			"start": append(goModule(3000), appendSection(nil, sectionStart, []byte{0})...),
			"type":  bytes.Replace(goModule(3000), []byte{1, 0x60, 1, 0x7f}, []byte{1, 0x5e, 1, 0x7f}, 1),
		} {
			if _, err := Lift(m); !errors.Is(err, ErrUnsupported) {
				t.Errorf("%s: err = %v, want ErrUnsupported", name, err)
			}
		}
	})
}

// FuzzLift: on any input Lift either fails with ErrMalformed or ErrUnsupported, or
// returns a module an instance of which starts with the same memory.
func FuzzLift(f *testing.F) {
	f.Add(goModule(minColumn + 16))
	f.Add(goModule(10))
	f.Add(module(dataSection(segment{8, []byte{1, 2}})))
	f.Fuzz(func(t *testing.T, m []byte) {
		out, err := Lift(m)
		if err != nil {
			if !errors.Is(err, ErrMalformed) && !errors.Is(err, ErrUnsupported) {
				t.Fatalf("Lift: %v", err)
			}
			return
		}
		if bytes.Equal(out, m) {
			return
		}
		if !maps.Equal(instantiate(t, m), instantiate(t, out)) {
			t.Fatalf("Lift changed the memory:\n in %x\nout %x", m, out)
		}
	})
}
