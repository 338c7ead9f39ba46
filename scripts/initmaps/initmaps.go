package initmaps

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os/exec"
	"path/filepath"
	"strings"
)

// Module is the import path prefix of this project's packages, the only ones checked.
const Module = "github.com/tabletopdb/tabletop/"

// ErrNoFiles is returned when the program links no file of Module: the check would pass
// without looking at anything.
var ErrNoFiles = errors.New("no file of this module among the program's dependencies")

// Program returns, as "file.go: name", every package-level map built at start in the
// files of Module that the program in dir links when built for GOOS=js GOARCH=wasm.
func Program(dir string) ([]string, error) {
	cmd := exec.Command("go", "list", "-deps", "-f", `{{.ImportPath}}{{range .GoFiles}} {{$.Dir}}/{{.}}{{end}}`, ".")
	cmd.Dir = dir
	cmd.Env = append(cmd.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("list the program's dependencies: %w", err)
	}
	var found []string
	checked := 0
	for line := range strings.SplitSeq(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		if len(fields) == 0 || !strings.HasPrefix(fields[0], Module) {
			continue
		}
		for _, file := range fields[1:] {
			checked++
			names, err := File(file)
			if err != nil {
				return nil, err
			}
			for _, name := range names {
				found = append(found, filepath.Base(file)+": "+name)
			}
		}
	}
	if checked == 0 {
		return nil, ErrNoFiles
	}
	return found, nil
}

// File returns the package-level variables of the Go source file whose value is a map
// composite literal or a make of a map.
func File(file string) ([]string, error) {
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.SkipObjectResolution)
	if err != nil {
		return nil, fmt.Errorf("parse %s: %w", file, err)
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
	return names, nil
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
