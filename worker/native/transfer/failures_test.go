package transfer

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCreateFailures(t *testing.T) {
	path := filepath.Join(t.TempDir(), "failures.jsonl")
	record := func(resume bool, rk string) {
		fs, err := CreateFailures(path, resume)
		if err != nil {
			t.Fatal(err)
		}
		if err := fs.add(&EntityError{Table: "t", PartitionKey: "p", RowKey: rk, Code: "C"}); err != nil {
			t.Fatal(err)
		}
		if err := fs.Close(); err != nil {
			t.Fatal(err)
		}
	}
	lines := func() string {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	record(false, "a")
	record(true, "b")
	if got := lines(); strings.Count(got, "\n") != 2 || !strings.Contains(got, `"RowKey":"a"`) || !strings.Contains(got, `"RowKey":"b"`) {
		t.Fatalf("resumed run did not append: %q", got)
	}
	record(false, "c")
	if got := lines(); strings.Count(got, "\n") != 1 || !strings.Contains(got, `"RowKey":"c"`) {
		t.Fatalf("fresh run did not start over: %q", got)
	}
}
