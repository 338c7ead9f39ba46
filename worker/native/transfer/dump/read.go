package dump

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/goccy/go-json/jsontext"
	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/worker/native/transfer/typedjson"
)

// Format and Version are the values of a header's "format" and "version" members.
const (
	Format  = "tabletop-dump"
	Version = 1
)

// ErrNoHeader is returned for an entity line before any header line.
var ErrNoHeader = errors.New("entity before the first table header")

// ErrVersion is returned for a header whose version this reader does not know.
var ErrVersion = errors.New("dump version not supported")

// ErrHeader is returned for a header without a valid table name or version.
var ErrHeader = errors.New("header invalid")

// Record is one line of a dump: a table header (Entity nil) or an entity of Table.
type Record struct {
	Table  string
	Entity *model.Entity
}

// ErrLine is returned for a line that holds more than one JSON value.
var ErrLine = errors.New("more than one JSON value on the line")

// Reader reads the records of a dump in order, line by line, so that every error names
// the line it is on. Blank lines are skipped.
type Reader struct {
	br    *bufio.Reader
	buf   []byte // a line longer than br's buffer
	lr    bytes.Reader
	dec   *jsontext.Decoder
	line  int
	table string
}

// NewReader returns a Reader of r, which it decompresses if it starts with gzip's magic
// bytes.
func NewReader(r io.Reader) (*Reader, error) {
	br := bufio.NewReaderSize(r, 1<<16)
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		gz, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("open gzip: %w", err)
		}
		br = bufio.NewReaderSize(gz, 1<<16)
	}
	rd := &Reader{br: br}
	rd.dec = jsontext.NewDecoder(&rd.lr)
	return rd, nil
}

// Line returns the number of the line Next read last, counting from 1.
func (r *Reader) Line() int { return r.line }

// Next returns the next record, or io.EOF after the last one.
func (r *Reader) Next() (Record, error) {
	line, err := r.nextLine()
	if err != nil {
		return Record{}, err
	}
	r.lr.Reset(line)
	r.dec.Reset(&r.lr)
	o, err := typedjson.ReadObject(r.dec)
	if err == nil && r.dec.PeekKind() != 0 {
		err = ErrLine
	}
	if err != nil {
		return Record{}, r.fail(err)
	}
	if _, isEntity := o.Text(model.PartitionKeyName); !isEntity {
		return r.header(o)
	}
	if r.table == "" {
		return Record{}, r.fail(ErrNoHeader)
	}
	e, err := o.Entity()
	if err != nil {
		return Record{}, r.fail(err)
	}
	return Record{Table: r.table, Entity: e}, nil
}

// nextLine returns the next line that is not blank, without its line end; it stays valid
// until the next call.
func (r *Reader) nextLine() ([]byte, error) {
	for {
		line, err := r.br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			r.buf = append(r.buf[:0], line...)
			for err == bufio.ErrBufferFull {
				line, err = r.br.ReadSlice('\n')
				r.buf = append(r.buf, line...)
			}
			line = r.buf
		}
		if err != nil && err != io.EOF {
			return nil, fmt.Errorf("dump line %d: %w", r.line+1, err)
		}
		if len(line) == 0 && err == io.EOF {
			return nil, io.EOF
		}
		r.line++
		if trimmed := bytes.TrimSpace(line); len(trimmed) > 0 {
			return trimmed, nil
		}
	}
}

// header checks a header line and starts its table's section.
func (r *Reader) header(o *typedjson.Object) (Record, error) {
	if format, _ := o.Text("format"); format != Format {
		return Record{}, r.fail(fmt.Errorf("%w: neither an entity (no PartitionKey) nor a %s header (format %q)", ErrHeader, Format, format))
	}
	text, _ := o.Text("version")
	v, err := strconv.Atoi(text)
	switch {
	case err != nil || v < 1:
		return Record{}, r.fail(fmt.Errorf("%w: version %q", ErrHeader, text))
	case v > Version:
		return Record{}, r.fail(fmt.Errorf("%w: version %d (this reader knows version %d)", ErrVersion, v, Version))
	}
	table, _ := o.Text("table")
	if err := model.ValidateTableName(table); err != nil {
		return Record{}, r.fail(fmt.Errorf("%w: table %q: %w", ErrHeader, table, err))
	}
	r.table = table
	return Record{Table: table}, nil
}

func (r *Reader) fail(err error) error {
	if err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	return fmt.Errorf("dump line %d: %w", r.line, err)
}
