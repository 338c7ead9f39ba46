//go:build !js

package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestStartup_NoPackageMaps: no package of this module that the browser program links
// declares a package-level map with a value. Go builds such a map with code at every
// start of the program, before the page's first call, and in a tab without the compiled
// module V8 compiles that code (the map functions it runs) on the way; a switch costs
// nothing at start. A map filled later, on first use, is not declared with a value and
// passes. (worker/edge/startup_test.go holds the edge program to the same rule.)
func TestStartup_NoPackageMaps(t *testing.T) {
	const module = "github.com/tabletopdb/tabletop/"
	cmd := exec.Command("go", "list", "-deps", "-f", `{{.ImportPath}}{{range .GoFiles}} {{$.Dir}}/{{.}}{{end}}`, ".")
	cmd.Env = append(cmd.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	t.Run("OK", func(t *testing.T) {
		checked := 0
		for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			fields := strings.Fields(line)
			if len(fields) == 0 || !strings.HasPrefix(fields[0], module) {
				continue
			}
			for _, file := range fields[1:] {
				checked++
				for _, name := range packageMaps(t, file) {
					t.Errorf("%s: package-level map %s is built at every start of the browser program", filepath.Base(file), name)
				}
			}
		}
		if checked == 0 {
			t.Fatal("no file of this module among the browser program's dependencies")
		}
	})
	t.Run("ErrFound", func(t *testing.T) {
		// The check sees both forms of a map built at start, and not a map declared empty.
		file := filepath.Join(t.TempDir(), "maps.go")
		src := "package p\n\nvar a = map[string]int{\"x\": 1}\nvar b, c = 1, make(map[int]bool)\nvar d map[string]int\n"
		if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(packageMaps(t, file), ","); got != "a,c" {
			t.Fatalf("packageMaps = %q, want \"a,c\"", got)
		}
	})
}

// packageMaps returns the package-level variables of file whose value is a map composite
// literal or a make of a map.
func packageMaps(t *testing.T, file string) []string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatalf("parse %s: %v", file, err)
	}
	var names []string
	for _, decl := range f.Decls {
		gen, ok := decl.(*ast.GenDecl)
		if !ok || gen.Tok != token.VAR {
			continue
		}
		for _, spec := range gen.Specs {
			vs := spec.(*ast.ValueSpec)
			for i, v := range vs.Values {
				if isMapValue(v) && i < len(vs.Names) {
					names = append(names, vs.Names[i].Name)
				}
			}
		}
	}
	return names
}

// isMapValue reports whether e is map[K]V{...} or make(map[K]V...).
func isMapValue(e ast.Expr) bool {
	switch v := e.(type) {
	case *ast.CompositeLit:
		_, ok := v.Type.(*ast.MapType)
		return ok
	case *ast.CallExpr:
		fn, ok := v.Fun.(*ast.Ident)
		if !ok || fn.Name != "make" || len(v.Args) == 0 {
			return false
		}
		_, ok = v.Args[0].(*ast.MapType)
		return ok
	}
	return false
}
