//go:build !js

package initmaps

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestFile(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		// Both forms of a map built at start are found, and not a map declared empty.
		file := filepath.Join(t.TempDir(), "maps.go")
		src := "package p\n\nvar a = map[string]int{\"x\": 1}\nvar b, c = 1, make(map[int]bool)\nvar d map[string]int\n"
		if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := File(file)
		if err != nil || strings.Join(got, ",") != "a,c" {
			t.Fatalf("File = %q, %v; want \"a,c\"", got, err)
		}
	})
	t.Run("ErrParse", func(t *testing.T) {
		file := filepath.Join(t.TempDir(), "bad.go")
		if err := os.WriteFile(file, []byte("package p\nvar = \n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := File(file); err == nil {
			t.Fatal("File of a file that does not parse: no error")
		}
	})
}

func TestProgram(t *testing.T) {
	t.Run("ErrNoFiles", func(t *testing.T) {
		dir := t.TempDir()
		files := map[string]string{"go.mod": "module other\n\ngo 1.24\n", "main.go": "package main\n\nfunc main() {}\n"}
		for name, src := range files {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := Program(dir); !errors.Is(err, ErrNoFiles) {
			t.Fatalf("Program of a program outside the module: %v, want %v", err, ErrNoFiles)
		}
	})
}
