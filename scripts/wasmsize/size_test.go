package main

import (
	"bytes"
	"errors"
	"slices"
	"strings"
	"testing"
)

func section(id byte, body ...byte) []byte { return append([]byte{id, byte(len(body))}, body...) }

// named is a module importing one function and defining two (bodies of 3 and 5 bytes),
// with a name section naming them (and the import).
func named() []byte {
	m := []byte("\x00asm\x01\x00\x00\x00")
	m = append(m, section(2, 1, 1, 'g', 1, 'f', 0, 0)...)
	m = append(m, section(10, 2, 3, 0, 1, 0x0b, 5, 0, 1, 1, 1, 0x0b)...)
	names := []byte{3, 0, 1, 'i', 1, 1, 'a', 2, 11, 'b', '.', '_', '_', 'T', '_', '.', 'M', 'x', 'y', 'z'}
	custom := append([]byte{4, 'n', 'a', 'm', 'e', 1, byte(len(names))}, names...)
	return append(m, section(0, custom...)...)
}

func TestFuncs(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		fs, err := Funcs(named())
		if want := []Func{{"a", 3}, {"b.__T_.Mxyz", 5}}; err != nil || !slices.Equal(fs, want) {
			t.Errorf("Funcs = %v, %v; want %v", fs, err, want)
		}
	})
	t.Run("ErrNoNames", func(t *testing.T) {
		m := named()
		if _, err := Funcs(m[:bytes.Index(m, []byte("\x04name"))-2]); !errors.Is(err, ErrNoNames) { // without its name section
			t.Errorf("err = %v, want ErrNoNames", err)
		}
	})
	t.Run("ErrMalformed", func(t *testing.T) {
		m := named()
		for name, b := range map[string][]byte{"header": m[:6], "truncated": m[:len(m)-1], "size": append(m[:8:8], 10, 0xff)} {
			if _, err := Funcs(b); !errors.Is(err, ErrMalformed) {
				t.Errorf("%s: err = %v, want ErrMalformed", name, err)
			}
		}
	})
}

func TestPackage(t *testing.T) {
	for name, want := range map[string]string{
		"runtime.mallocgc":                                  "runtime",
		"fmt.__pp_.doPrintf":                                "fmt",
		"internal_strconv.FormatFloat":                      "internal_strconv",
		"github.com_tidwall_buntdb.__DB_.readLoad":          "github.com_tidwall_buntdb",
		"github.com_tabletopdb_tabletop_core_query.Records": "github.com_tabletopdb_tabletop_core_query",
		"github.com/tidwall/btree.(*BTreeG).Set":            "github.com/tidwall/btree",
		"main":                                              "main",
	} {
		if got := Package(name); got != want {
			t.Errorf("Package(%q) = %q, want %q", name, got, want)
		}
	}
}

func TestReport(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		var out strings.Builder
		if err := report(&out, named(), 10, false); err != nil {
			t.Fatal(err)
		}
		if want := "2 functions, 8 bytes of code\n        5  62.5%  b\n        3  37.5%  a\n"; out.String() != want {
			t.Errorf("report:\n%s\nwant\n%s", out.String(), want)
		}
	})
}

// FuzzFuncs: on any input Funcs returns functions or ErrMalformed or ErrNoNames, and
// never panics.
func FuzzFuncs(f *testing.F) {
	f.Add(named())
	f.Fuzz(func(t *testing.T, m []byte) {
		if _, err := Funcs(m); err != nil && !errors.Is(err, ErrMalformed) && !errors.Is(err, ErrNoNames) {
			t.Fatalf("Funcs: %v", err)
		}
	})
}
