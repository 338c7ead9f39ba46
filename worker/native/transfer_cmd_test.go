//go:build !js

package native

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/worker/native/transfer"
	"github.com/tabletopdb/tabletop/worker/native/transfer/dump"
	"github.com/tabletopdb/tabletop/worker/native/transfer/endpoint"
	"github.com/tabletopdb/tabletop/worker/native/transfer/transfertest"
	"github.com/tabletopdb/tabletop/worker/rest/auth"
)

func TestRunTransfer(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.ndjson")
	writeEntities(t, in, 10)
	t.Run("OK/FlagsAfterEnds", func(t *testing.T) {
		out := filepath.Join(dir, "out.ndjson")
		var stderr bytes.Buffer
		code := runTransfer(context.Background(), []string{"copy", in, out, "-filter", "RowKey lt 'r00005'", "-tables=tbl"}, io.Discard, &stderr)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr.String())
		}
		if n := countLines(t, out); n != 6 {
			t.Fatalf("%d lines, want the header and 5 entities", n)
		}
		if !strings.HasPrefix(stderr.String(), "done entities=5 failed=0 ") {
			t.Fatalf("last line %q", stderr.String())
		}
	})
	for _, tc := range []struct {
		name string
		args []string
		code int
		says string
	}{
		{"ErrUsage", []string{"import", in}, 2, "usage:"},
		{"ErrFlag", []string{"copy", "-nosuch", in, in}, 2, "-nosuch"},
		{"ErrFilter", []string{"copy", "-filter", "RowKey eq", in, filepath.Join(dir, "x.ndjson")}, 1, "filter"},
		{"ErrAzuriteWrite", []string{"copy", in, filepath.Join(dir, "__azurite_db_table__.json")}, 1, "read only"},
		{"ErrResumeGzip", []string{"copy", "-checkpoint", filepath.Join(dir, "c.ckpt"), in, filepath.Join(dir, "z.ndjson.gz")}, 1, "cannot be resumed"},
		{"ErrResumeStdout", []string{"export", "-checkpoint", filepath.Join(dir, "c.ckpt"), in}, 1, "cannot be resumed"},
		{"ErrNotExist", []string{"import", filepath.Join(dir, "nosuch.ndjson"), filepath.Join(dir, "y.ndjson")}, 1, "no such file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stderr bytes.Buffer
			code := runTransfer(context.Background(), tc.args, io.Discard, &stderr)
			if code != tc.code || !strings.Contains(stderr.String(), tc.says) {
				t.Fatalf("exit %d, want %d; stderr %q should say %q", code, tc.code, stderr.String(), tc.says)
			}
		})
	}
}

// TestCopyKilled: `tabletop copy -checkpoint` killed with SIGKILL once its checkpoint shows
// progress, then run again, ends with every entity exactly once, into an endpoint and
// into a dump.
// TestRunTransfer_failed: a copy that fails says what failed in a line (the Azure code and
// message, not the remote's body), and leaves no destination file behind.
func TestRunTransfer_failed(t *testing.T) {
	srv := transfertest.NewServer(t)
	wrongKey := strings.Replace(srv.ConnectionString, auth.DevAccountKey, "d3Jvbmcta2V5", 1)
	out := filepath.Join(t.TempDir(), "out.ndjson")
	var stderr bytes.Buffer
	if code := runTransfer(context.Background(), []string{"copy", wrongKey, out}, io.Discard, &stderr); code != 1 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	got := stderr.String()
	if !strings.Contains(got, "AuthenticationFailed (HTTP 403): Server failed to authenticate the request.") || strings.Contains(got, "RequestId") || strings.Contains(got, "<?xml") {
		t.Fatalf("stderr %q", got)
	}
	if matches, _ := filepath.Glob(out + "*"); len(matches) > 0 {
		t.Fatalf("a failed copy left %v", matches)
	}
}

func TestCopyKilled(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the program")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "tabletop")
	if out, err := exec.Command("go", "build", "-o", bin, "../tabletop").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	const n = 60_000
	in := filepath.Join(dir, "in.ndjson")
	want := writeEntities(t, in, n)
	srv := transfertest.NewServer(t)
	for _, tc := range []struct{ name, dst string }{
		{"OK/Endpoint", srv.ConnectionString},
		{"OK/Dump", filepath.Join(dir, "out.ndjson")},
	} {
		dst := tc.dst
		t.Run(tc.name, func(t *testing.T) {
			ckpt := filepath.Join(t.TempDir(), "copy.ckpt")
			killed := runUntilCheckpoint(t, bin, ckpt, in, dst)
			if killed.Entities <= 0 || killed.Entities >= n {
				t.Fatalf("killed at %d entities", killed.Entities)
			}
			out, err := exec.Command(bin, "copy", "-checkpoint", ckpt, in, dst).CombinedOutput()
			if err != nil {
				t.Fatalf("resumed copy: %v\n%s", err, out)
			}
			if want := fmt.Sprintf("done entities=%d ", n-killed.Entities); !strings.Contains(string(out), want) {
				t.Fatalf("resumed copy says %q, want %q", out, want)
			}
			if _, err := os.Stat(ckpt); !errors.Is(err, os.ErrNotExist) {
				t.Fatalf("checkpoint left: %v", err)
			}
			if d := transfertest.Diff(want, readEnd(t, dst), false); d != "" {
				t.Fatalf("%.2000s", d)
			}
		})
	}
}

// runUntilCheckpoint starts the copy, kills it as soon as its checkpoint records entities
// written, and returns that checkpoint.
func runUntilCheckpoint(t *testing.T, bin, ckpt, src, dst string) transfer.Checkpoint {
	t.Helper()
	cmd := exec.Command(bin, "copy", "-checkpoint", ckpt, src, dst)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(2 * time.Millisecond) {
		var cp transfer.Checkpoint
		if data, err := os.ReadFile(ckpt); err == nil && json.Unmarshal(data, &cp) == nil && cp.Entities > 0 {
			cmd.Process.Kill()
			<-exited
			// the checkpoint may have moved on between the read and the kill
			data, _ = os.ReadFile(ckpt)
			json.Unmarshal(data, &cp)
			return cp
		}
		select {
		case err := <-exited:
			t.Fatalf("copy ended (%v) before it could be killed:\n%s", err, out.String())
		default:
		}
	}
	cmd.Process.Kill()
	t.Fatalf("no checkpoint progress:\n%s", out.String())
	return transfer.Checkpoint{}
}

// writeEntities writes a dump of table "tbl" with n entities over 7 partitions.
func writeEntities(t *testing.T, path string, n int) []*model.Entity {
	t.Helper()
	s, err := transfer.OpenSink(path, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.BeginTable(context.Background(), "tbl", false); err != nil {
		t.Fatal(err)
	}
	var es []*model.Entity
	for i := range n {
		e := &model.Entity{PartitionKey: fmt.Sprintf("p%d", i%7), RowKey: fmt.Sprintf("r%05d", i),
			Properties: []model.Property{{Name: "N", Value: model.Int64Value(int64(i))}}}
		es = append(es, e)
		if err := s.Write(context.Background(), "tbl", []*model.Entity{e}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	return es
}

// readEnd reads table "tbl" of an endpoint or a dump.
func readEnd(t *testing.T, end string) []*model.Entity {
	t.Helper()
	var out []*model.Entity
	if transfer.IsEndpoint(end) {
		c, err := endpoint.Parse(end)
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Query(context.Background(), "tbl", "", func(e *model.Entity) error { out = append(out, e); return nil }); err != nil {
			t.Fatal(err)
		}
		return out
	}
	f, err := os.Open(end)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := dump.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	headers := 0
	for {
		rec, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if rec.Entity == nil {
			headers++
			continue
		}
		out = append(out, rec.Entity)
	}
	if headers != 1 {
		t.Fatalf("%d headers", headers)
	}
	return out
}

func countLines(t *testing.T, path string) int {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return bytes.Count(data, []byte("\n"))
}
