package transfer_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/tabletopdb/tabletop/core/azerr"
	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/worker/native/transfer"
	"github.com/tabletopdb/tabletop/worker/native/transfer/dump"
	"github.com/tabletopdb/tabletop/worker/native/transfer/endpoint"
	"github.com/tabletopdb/tabletop/worker/native/transfer/transfertest"
)

var ctx = context.Background()

// copyEnds copies src to dst with the job's options set by opt.
func copyEnds(t *testing.T, src, dst string, opt func(*transfer.Job)) error {
	return copyWrapped(t, src, dst, opt, nil)
}

// copyWrapped is copyEnds with the destination wrapped by wrap.
func copyWrapped(t *testing.T, src, dst string, opt func(*transfer.Job), wrap func(transfer.Sink) transfer.Sink) error {
	t.Helper()
	j := transfer.Job{}
	if opt != nil {
		opt(&j)
	}
	if err := j.Select.Compile(); err != nil {
		return err
	}
	var err error
	if j.Source, err = transfer.OpenSource(src); err != nil {
		return err
	}
	defer j.Source.Close()
	off := int64(0)
	if j.Checkpoint != nil {
		off = j.Checkpoint.Offset
	}
	if j.Sink, err = transfer.OpenSink(dst, 8, off); err != nil {
		return err
	}
	if wrap != nil {
		j.Sink = wrap(j.Sink)
	}
	err = j.Run(ctx)
	return errors.Join(err, j.Sink.Close())
}

// seed creates table in srv holding es.
func seed(t *testing.T, srv *transfertest.Server, table string, es []*model.Entity) {
	t.Helper()
	c, err := endpoint.Parse(srv.ConnectionString)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.CreateTable(ctx, table); err != nil {
		t.Fatal(err)
	}
	for _, e := range es {
		if err := c.Upsert(ctx, table, []*model.Entity{e}); err != nil {
			t.Fatal(err)
		}
	}
}

// entities reads every entity of table from an endpoint.
func entities(t *testing.T, conn, table string) []*model.Entity {
	t.Helper()
	c, err := endpoint.Parse(conn)
	if err != nil {
		t.Fatal(err)
	}
	var out []*model.Entity
	if err := c.Query(ctx, table, "", func(e *model.Entity) error { out = append(out, e); return nil }); err != nil {
		t.Fatal(err)
	}
	return out
}

// readDump reads a dump file's entities by table.
func readDump(t *testing.T, path string) map[string][]*model.Entity {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := dump.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]*model.Entity{}
	for {
		rec, err := r.Next()
		if err != nil {
			if err.Error() == "EOF" {
				return out
			}
			t.Fatal(err)
		}
		if _, ok := out[rec.Table]; ok && rec.Entity == nil {
			t.Fatalf("table %s has two headers", rec.Table)
		}
		if rec.Entity == nil {
			out[rec.Table] = []*model.Entity{}
		} else {
			out[rec.Table] = append(out[rec.Table], rec.Entity)
		}
	}
}

func TestJob_Run(t *testing.T) {
	t.Run("OK/NativeDumpNative", func(t *testing.T) {
		a, b := transfertest.NewServer(t), transfertest.NewServer(t)
		want := transfertest.EdgeEntities()
		seed(t, a, "edge", want)
		seed(t, a, "empty", nil)
		dir := t.TempDir()
		for _, name := range []string{"d.ndjson", "d.ndjson.gz"} {
			path := filepath.Join(dir, name)
			if err := copyEnds(t, a.ConnectionString, path, nil); err != nil {
				t.Fatal(err)
			}
			got := readDump(t, path)
			if d := transfertest.Diff(entities(t, a.ConnectionString, "edge"), got["edge"], true); d != "" {
				t.Fatalf("%s keeps the Timestamps: %s", name, d)
			}
			if e, ok := got["empty"]; !ok || len(e) != 0 {
				t.Fatalf("empty table: %v %v", e, ok)
			}
			if err := copyEnds(t, path, b.ConnectionString, nil); err != nil {
				t.Fatal(err)
			}
			if d := transfertest.Diff(want, entities(t, b.ConnectionString, "edge"), false); d != "" {
				t.Fatal(d)
			}
		}
	})
	t.Run("OK/TablesAndFilter", func(t *testing.T) {
		a := transfertest.NewServer(t)
		seed(t, a, "edge", transfertest.EdgeEntities())
		seed(t, a, "other", transfertest.EdgeEntities())
		path := filepath.Join(t.TempDir(), "d.ndjson")
		err := copyEnds(t, a.ConnectionString, path, func(j *transfer.Job) {
			j.Select = transfer.Selection{Tables: []string{"edge"}, Filter: "RowKey eq 'doubles'"}
		})
		if err != nil {
			t.Fatal(err)
		}
		got := readDump(t, path)
		if len(got) != 1 || len(got["edge"]) != 1 || got["edge"][0].RowKey != "doubles" {
			t.Fatalf("got %v", got)
		}
		b := filepath.Join(t.TempDir(), "e.ndjson") // the filter applied to a file source
		err = copyEnds(t, path, b, func(j *transfer.Job) { j.Select = transfer.Selection{Filter: "RowKey ne 'doubles'"} })
		if g := readDump(t, b); err != nil || len(g["edge"]) != 0 {
			t.Fatalf("got %v, %v", g, err)
		}
	})
	t.Run("ErrEntity", func(t *testing.T) {
		b := transfertest.NewServer(t)
		path := writeDump(t, 250, 3)
		err := copyEnds(t, path, b.ConnectionString, nil)
		var ee *transfer.EntityError
		if !errors.As(err, &ee) || ee.Code != azerr.PropertyNameInvalid.Name || ee.RowKey != "r00003" {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("OK/KeepGoing", func(t *testing.T) {
		b := transfertest.NewServer(t)
		path := writeDump(t, 250, 3, 120, 249)
		failPath := filepath.Join(t.TempDir(), "failures.jsonl")
		fs, err := transfer.CreateFailures(failPath, false)
		if err != nil {
			t.Fatal(err)
		}
		err = copyEnds(t, path, b.ConnectionString, func(j *transfer.Job) { j.Failures = fs })
		fs.Close()
		if err != nil || fs.Count() != 3 {
			t.Fatalf("err %v, %d failures", err, fs.Count())
		}
		if n := len(entities(t, b.ConnectionString, "tbl")); n != 247 {
			t.Fatalf("%d entities written, want 247", n)
		}
		data, _ := os.ReadFile(failPath)
		for _, rk := range []string{"r00003", "r00120", "r00249"} {
			if !strings.Contains(string(data), `"RowKey":"`+rk+`","code":"PropertyNameInvalid"`) {
				t.Fatalf("failures file lacks %s:\n%s", rk, data)
			}
		}
	})
}

// writeDump writes a dump of table "tbl" with n entities over 3 partitions, those at the
// indexes bad holding a property name the service refuses.
func writeDump(t *testing.T, n int, bad ...int) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "in.ndjson")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	dw := dump.NewWriter(w)
	dw.Header("tbl")
	for i := range n {
		e := &model.Entity{PartitionKey: fmt.Sprintf("p%d", i%3), RowKey: fmt.Sprintf("r%05d", i),
			Properties: []model.Property{{Name: "N", Value: model.Int64Value(int64(i))}}}
		for _, b := range bad {
			if b == i {
				e.Properties = append(e.Properties, model.Property{Name: "1bad", Value: model.StringValue("x")})
			}
		}
		if err := dw.Entity(e); err != nil {
			t.Fatal(err)
		}
	}
	if err := errors.Join(w.Flush(), f.Close()); err != nil {
		t.Fatal(err)
	}
	return path
}

// crashingSink fails every Write after the first n, as a copy killed halfway stops.
type crashingSink struct {
	transfer.Sink
	n atomic.Int64
}

var errCrash = errors.New("killed")

func (s *crashingSink) Write(ctx context.Context, table string, es []*model.Entity) error {
	if s.n.Add(-1) < 0 {
		return errCrash
	}
	return s.Sink.Write(ctx, table, es)
}

func TestJob_Run_resume(t *testing.T) {
	const n = 9000
	src := transfertest.NewServer(t)
	var want []*model.Entity
	for i := range n {
		want = append(want, &model.Entity{PartitionKey: fmt.Sprintf("p%02d", i%7), RowKey: fmt.Sprintf("r'%05d", i), // a quote to escape when resuming
			Properties: []model.Property{{Name: "N", Value: model.Int64Value(int64(i))}}})
	}
	c, _ := endpoint.Parse(src.ConnectionString)
	for _, table := range []string{"first", "second"} {
		c.CreateTable(ctx, table)
		for i := 0; i < n; i += 100 { // 100 consecutive entities fall in 7 partitions
			for p := range 7 {
				var b []*model.Entity
				for _, e := range want[i:min(i+100, n)] {
					if e.PartitionKey == fmt.Sprintf("p%02d", p) {
						b = append(b, e)
					}
				}
				if err := c.Upsert(ctx, table, b); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	for _, tc := range []struct{ name, dst string }{
		{"OK/Dump", filepath.Join(t.TempDir(), "out.ndjson")},
		{"OK/Endpoint", transfertest.NewServer(t).ConnectionString},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cpPath := filepath.Join(t.TempDir(), "checkpoint.json")
			runs := 0
			for crashAfter := int64(50); ; crashAfter += 60 { // each run gets further, then dies
				runs++
				cp, err := transfer.LoadCheckpoint(cpPath, src.ConnectionString, tc.dst)
				if err != nil {
					t.Fatal(err)
				}
				err = copyWrapped(t, src.ConnectionString, tc.dst, func(j *transfer.Job) { j.Checkpoint = cp },
					func(s transfer.Sink) transfer.Sink {
						cs := &crashingSink{Sink: s}
						cs.n.Store(crashAfter)
						return cs
					})
				if err == nil {
					break
				}
				if !errors.Is(err, errCrash) {
					t.Fatal(err)
				}
				if data, err := os.ReadFile(cpPath); err != nil || strings.Contains(string(data), "AccountKey") ||
					!strings.Contains(string(data), `"source":"`+src.URL+`"`) {
					t.Fatalf("checkpoint after a crash: %s, %v", data, err)
				}
			}
			if runs < 3 {
				t.Fatalf("%d runs: the copy was not interrupted twice", runs)
			}
			if _, err := os.Stat(cpPath); !errors.Is(err, os.ErrNotExist) {
				t.Fatalf("checkpoint left after the copy completed: %v", err)
			}
			for _, table := range []string{"first", "second"} {
				var got []*model.Entity
				if strings.HasSuffix(tc.dst, ".ndjson") {
					got = readDump(t, tc.dst)[table]
				} else {
					got = entities(t, tc.dst, table)
				}
				if d := transfertest.Diff(want, got, false); d != "" {
					t.Fatalf("table %s after %d runs: %.2000s", table, runs, d)
				}
			}
		})
	}
}
