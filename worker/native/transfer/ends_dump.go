package transfer

import (
	"bufio"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/worker/native/transfer/dump"
)

// ErrResumeGzip is returned when a copy to a gzip-compressed dump would resume from a
// checkpoint: a gzip stream cannot be cut and continued.
var ErrResumeGzip = errors.New("a copy into a gzip-compressed dump cannot be resumed: drop -checkpoint, or write a plain dump and compress it afterwards")

// dumpSource reads a dump file ("-": standard input).
type dumpSource struct {
	f     *os.File
	count *countingReader
	total int64
}

func openDumpSource(name string) (*dumpSource, error) {
	f := os.Stdin
	if name != "-" {
		var err error
		if f, err = os.Open(name); err != nil {
			return nil, err
		}
	}
	s := &dumpSource{f: f, count: &countingReader{r: f}}
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
		s.total = fi.Size()
	}
	return s, nil
}

// Read reads the dump's sections, keeping the selected tables and matching entities.
func (s *dumpSource) Read(ctx context.Context, sel *Selection, fn func(string, *model.Entity) error) error {
	r, err := dump.NewReader(s.count)
	if err != nil {
		return err
	}
	for {
		rec, err := r.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if !sel.wants(rec.Table) || (rec.Entity != nil && !sel.matches(rec.Entity)) {
			continue
		}
		if err := fn(rec.Table, rec.Entity); err != nil {
			return err
		}
	}
}

// Position is how far through the file the reading is, in bytes (compressed, for gzip).
func (s *dumpSource) Position() (int64, int64) { return s.count.n, s.total }

// Close closes the file.
func (s *dumpSource) Close() error { return s.f.Close() }

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

// Read reads from the underlying reader, counting.
func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// dumpSink writes a dump file ("-": standard output), gzip-compressed when its name ends in
// ".gz".
type dumpSink struct {
	f   *os.File
	buf *bufio.Writer
	gz  *gzip.Writer
	w   *dump.Writer
	off int64 // bytes in the file when it was opened
}

// openDumpSink creates the file, or with offset > 0 (a resumed copy) cuts it to offset and
// appends.
func openDumpSink(name string, offset int64) (*dumpSink, error) {
	gzipped := strings.HasSuffix(name, ".gz")
	if gzipped && offset > 0 {
		return nil, ErrResumeGzip
	}
	s := &dumpSink{f: os.Stdout, off: offset}
	if name != "-" {
		flags := os.O_RDWR | os.O_CREATE
		if offset == 0 {
			flags |= os.O_TRUNC
		}
		f, err := os.OpenFile(name, flags, 0o644)
		if err != nil {
			return nil, err
		}
		if err := cutAt(f, offset); err != nil {
			f.Close()
			return nil, fmt.Errorf("resume dump %s: %w", name, err)
		}
		s.f = f
	}
	s.buf = bufio.NewWriterSize(s.f, 1<<16)
	var w io.Writer = s.buf
	if gzipped {
		s.gz = gzip.NewWriter(s.buf)
		w = s.gz
	}
	s.w = dump.NewWriter(w)
	return s, nil
}

// cutAt truncates f to offset and places its write position there.
func cutAt(f *os.File, offset int64) error {
	if offset == 0 {
		return nil
	}
	if fi, err := f.Stat(); err != nil || fi.Size() < offset {
		return fmt.Errorf("file shorter than the checkpoint's %d bytes", offset)
	}
	if err := f.Truncate(offset); err != nil {
		return err
	}
	_, err := f.Seek(offset, io.SeekStart)
	return err
}

// BeginTable writes the table's header, unless the table is resumed.
func (s *dumpSink) BeginTable(_ context.Context, table string, resumed bool) error {
	if resumed {
		return nil
	}
	return s.w.Header(table)
}

// Write writes each entity as a line, Timestamp included.
func (s *dumpSink) Write(_ context.Context, _ string, es []*model.Entity) error {
	for _, e := range es {
		if err := s.w.Entity(e); err != nil {
			return err
		}
	}
	return nil
}

// Sync flushes the buffer to the file and the file to disk and returns the file's length.
func (s *dumpSink) Sync() (int64, error) {
	if s.gz != nil {
		if err := s.gz.Flush(); err != nil {
			return 0, err
		}
	}
	if err := s.buf.Flush(); err != nil {
		return 0, err
	}
	if s.f == os.Stdout {
		return 0, nil
	}
	if err := s.f.Sync(); err != nil {
		return 0, err
	}
	return s.f.Seek(0, io.SeekCurrent)
}

// Parallel is 1: lines are written one Write at a time, in order.
func (s *dumpSink) Parallel() int { return 1 }

// Ordered is true: a dump takes entities in source order, whatever their partitions.
func (s *dumpSink) Ordered() bool { return true }

// Close ends the gzip stream, flushes and closes the file.
func (s *dumpSink) Close() error {
	var errs []error
	if s.gz != nil {
		errs = append(errs, s.gz.Close())
	}
	errs = append(errs, s.buf.Flush())
	if s.f != os.Stdout {
		errs = append(errs, s.f.Close())
	}
	return errors.Join(errs...)
}
