package core_test

import (
	"fmt"
	"log"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/model"
)

// Example_readme is the README's Go snippet ("Getting started: embedding the Go engine"),
// between the markers; TestREADME_goSnippet keeps the two the same.
func Example_readme() {
	// README begin
	s, err := core.Open(core.Options{}) // in memory; Options.Backend makes it durable
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	if _, err := s.CreateTable("People"); err != nil {
		log.Fatal(err)
	}
	e := &model.Entity{PartitionKey: "staff", RowKey: "Ada"}
	e.Set("Age", model.Int32Value(36))
	if _, err := s.Apply("People", core.Op{Kind: core.OpInsert, Entity: e}); err != nil {
		log.Fatal(err)
	}
	got, err := s.Get("people", "staff", "Ada") // table names are case-insensitive
	if err != nil {
		log.Fatal(err)
	}
	age, _ := got.Get("Age")
	fmt.Println(got.RowKey, age.Int32())
	// README end

	// Output: Ada 36
}

// TestREADME_goSnippet: the README's Go snippet is Example_readme's body, which runs.
func TestREADME_goSnippet(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	self, err := os.ReadFile("readme_example_test.go")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)## Getting started: embedding the Go engine\\s*```go\\n(.*?)```").FindSubmatch(readme)
	body := regexp.MustCompile("(?s)// README begin\\n(.*?)\\t// README end").FindSubmatch(self)
	if m == nil || body == nil {
		t.Fatal("snippet or markers not found")
	}
	unindent := strings.NewReplacer("\n\t", "\n")
	if got, want := string(m[1]), strings.TrimPrefix(unindent.Replace("\n"+string(body[1])), "\n"); got != want {
		t.Fatalf("README's Go snippet\n%s\ndiffers from Example_readme's body\n%s", got, want)
	}
}

// TestREADME_short: the README stays a five-minute read, under 300 lines; what is longer
// belongs in the documents beside the code it describes.
func TestREADME_short(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(readme), "\n"); n >= 300 {
		t.Fatalf("README.md has %d lines; keep it under 300 and move detail beside the code", n)
	}
}
