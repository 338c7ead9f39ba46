package transfer_test

import (
	"bytes"
	"os"
	"testing"

	"github.com/tabletopdb/tabletop/worker/native/transfer/dump"
	"github.com/tabletopdb/tabletop/worker/native/transfer/transfertest"
)

// TestEdgeFixture: testdata/edge.ndjson, the dump the end-to-end test (e2e/) sends round
// Tabletop, Azurite and the edge worker, is transfertest.EdgeEntities as table "edge".
// Regenerate it with TABLETOP_WRITE_FIXTURE=1.
func TestEdgeFixture(t *testing.T) {
	var buf bytes.Buffer
	w := dump.NewWriter(&buf)
	if err := w.Header("edge"); err != nil {
		t.Fatal(err)
	}
	for _, e := range transfertest.EdgeEntities() {
		if err := w.Entity(e); err != nil {
			t.Fatal(err)
		}
	}
	if os.Getenv("TABLETOP_WRITE_FIXTURE") != "" {
		if err := os.WriteFile("testdata/edge.ndjson", buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile("testdata/edge.ndjson")
	if err != nil || !bytes.Equal(got, buf.Bytes()) {
		t.Fatalf("testdata/edge.ndjson is stale (%v): regenerate it with TABLETOP_WRITE_FIXTURE=1", err)
	}
}
