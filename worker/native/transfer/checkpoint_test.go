package transfer_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/tabletopdb/tabletop/worker/native/transfer"
)

func TestLoadCheckpoint(t *testing.T) {
	path := filepath.Join(t.TempDir(), "copy.ckpt")
	const key = "AccountKey=Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="
	src := "AccountName=devstoreaccount1;" + key + ";TableEndpoint=http://127.0.0.1:1/devstoreaccount1"
	t.Run("OK/Fresh", func(t *testing.T) {
		cp, err := transfer.LoadCheckpoint(path, src, "out.ndjson")
		if err != nil || cp.Resuming() {
			t.Fatalf("%+v, %v", cp, err)
		}
	})
	data := `{"source":"http://127.0.0.1:1/devstoreaccount1","destination":"out.ndjson","done":["a"],"table":"b","entities":5,"offset":99}`
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Run("OK/Resume", func(t *testing.T) {
		cp, err := transfer.LoadCheckpoint(path, src, "out.ndjson")
		if err != nil || !cp.Resuming() || cp.Entities != 5 || cp.Offset != 99 {
			t.Fatalf("%+v, %v", cp, err)
		}
	})
	t.Run("ErrCheckpointMismatch", func(t *testing.T) {
		_, err := transfer.LoadCheckpoint(path, src, "other.ndjson")
		if !errors.Is(err, transfer.ErrCheckpointMismatch) {
			t.Fatalf("err = %v", err)
		}
	})
}
