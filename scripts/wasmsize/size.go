package main

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
)

var (
	// ErrMalformed means the input is not a well-formed WebAssembly module.
	ErrMalformed = errors.New("malformed wasm module")
	// ErrNoNames means the module has no function names (linked with -s).
	ErrNoNames = errors.New("no name section")
)

// Func is one function of a module: its name and the size of its body in bytes.
type Func struct {
	Name string
	Size int
}

// Funcs returns the module's defined functions with their names and body sizes.
func Funcs(module []byte) ([]Func, error) {
	if !bytes.HasPrefix(module, []byte("\x00asm\x01\x00\x00\x00")) {
		return nil, fmt.Errorf("%w: no wasm header", ErrMalformed)
	}
	var sizes []int
	var imported uint64
	names := map[uint64]string{}
	for b := module[8:]; len(b) > 0; {
		id := b[0]
		size, n := binary.Uvarint(b[1:])
		if n <= 0 || size > uint64(len(b)-1-n) {
			return nil, fmt.Errorf("%w: section %d's size", ErrMalformed, id)
		}
		body := b[1+n : 1+n+int(size)]
		b = b[1+n+int(size):]
		var err error
		switch id {
		case 2:
			imported, err = importedFuncs(body)
		case 10:
			sizes, err = bodySizes(body)
		case 0:
			err = readNames(body, names)
		}
		if err != nil {
			return nil, err
		}
	}
	if len(names) == 0 {
		return nil, ErrNoNames
	}
	out := make([]Func, len(sizes))
	for i, s := range sizes {
		out[i] = Func{Name: names[imported+uint64(i)], Size: s}
	}
	return out, nil
}

// Package is the Go package a function name belongs to: the import path up to the first
// dot after its last slash. Go's wasm names write the path's slashes as underscores
// ("github.com_tidwall_buntdb.__DB_.Open"), so there the search starts after the first
// underscore when the path's first element is a domain ("type_" and "go_" names are the
// linker's own).
func Package(name string) string {
	from := strings.LastIndexByte(name, '/') + 1
	dot, under := strings.IndexByte(name, '.'), strings.IndexByte(name, '_')
	if from == 0 && dot > 0 && dot < under-1 { // "github.com_…": a domain before the first underscore
		from = under + 1
	}
	if dot = strings.IndexByte(name[from:], '.'); dot >= 0 {
		return name[:from+dot]
	}
	return name
}

// report writes the n largest packages (or functions, with funcs) of module to w.
func report(w io.Writer, module []byte, n int, funcs bool) error {
	fs, err := Funcs(module)
	if err != nil {
		return err
	}
	sums, total := map[string]int{}, 0
	for _, f := range fs {
		key := f.Name
		if !funcs {
			key = Package(f.Name)
		}
		sums[key] += f.Size
		total += f.Size
	}
	keys := slices.SortedFunc(maps.Keys(sums), func(a, b string) int { return cmp.Or(sums[b]-sums[a], strings.Compare(a, b)) })
	fmt.Fprintf(w, "%d functions, %d bytes of code\n", len(fs), total)
	for _, k := range keys[:min(n, len(keys))] {
		fmt.Fprintf(w, "%9d %5.1f%%  %s\n", sums[k], 100*float64(sums[k])/float64(total), k)
	}
	return nil
}
