//go:build !js

package azerr

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestVocabulary_OneHome: no Go file of the module but codes.go spells an error code
// of the vocabulary as a string literal; tests aside, everything else refers to the codes.
func TestVocabulary_OneHome(t *testing.T) {
	names := map[string]bool{}
	for _, name := range codeNames(t) {
		names[name] = true
	}
	root := filepath.Join("..", "..")
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || path == filepath.Join(root, "core", "azerr", "codes.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING {
				if s, err := strconv.Unquote(lit.Value); err == nil && names[s] {
					t.Errorf("%s spells the error code %q; use the azerr code", fset.Position(lit.Pos()), s)
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// codeNames lists the names of the codes codes.go defines: the first field of each Code
// literal there.
func codeNames(t *testing.T) []string {
	f, err := parser.ParseFile(token.NewFileSet(), "codes.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		if cl, ok := n.(*ast.CompositeLit); ok && len(cl.Elts) == 3 {
			if id, ok := cl.Type.(*ast.Ident); ok && id.Name == "Code" {
				name, _ := strconv.Unquote(cl.Elts[0].(*ast.BasicLit).Value)
				out = append(out, name)
			}
		}
		return true
	})
	if len(out) < 30 {
		t.Fatalf("found %d codes in codes.go", len(out))
	}
	return out
}
