//go:build !js

package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestStartup_NoPackageMaps: no package of this module that the edge program links
// declares a package-level map with a value. Go builds such a map with code at every
// start of the program, before the first request can be served (an instance of the
// program starts for each Durable Object), and that code is compiled by V8 on the way;
// a switch, or an array indexed by a small enum, costs nothing at start. A map filled
// later, on first use, is not declared with a value and passes.
func TestStartup_NoPackageMaps(t *testing.T) {
	const module = "github.com/tabletopdb/tabletop/"
	cmd := exec.Command("go", "list", "-deps", "-f", `{{.ImportPath}}{{range .GoFiles}} {{$.Dir}}/{{.}}{{end}}`, ".")
	cmd.Env = append(cmd.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	checked := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		if len(fields) == 0 || !strings.HasPrefix(fields[0], module) {
			continue
		}
		for _, file := range fields[1:] {
			checked++
			for _, name := range packageMaps(t, file) {
				t.Errorf("%s: package-level map %s is built at every start of the edge program", filepath.Base(file), name)
			}
		}
	}
	if checked == 0 {
		t.Fatal("no file of this module among the edge program's dependencies")
	}
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
