package dump

import (
	"bufio"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/goccy/go-json/jsontext"
	"github.com/tabletopdb/tabletop/core"
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
	Entity *core.Entity
}

// Reader reads the records of a dump in order.
type Reader struct {
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
		return &Reader{dec: jsontext.NewDecoder(gz)}, nil
	}
	return &Reader{dec: jsontext.NewDecoder(br)}, nil
}

// Line returns the number of the line Next read last, counting from 1.
func (r *Reader) Line() int { return r.line }

// Next returns the next record, or io.EOF after the last one.
func (r *Reader) Next() (Record, error) {
	if r.dec.PeekKind() == 0 {
		if _, err := r.dec.ReadToken(); err != io.EOF {
			return Record{}, r.fail(err)
		}
		return Record{}, io.EOF
	}
	r.line++
	o, err := typedjson.ReadObject(r.dec)
	if err != nil {
		return Record{}, r.fail(err)
	}
	if _, isEntity := o.Text(core.PartitionKeyName); !isEntity {
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
	if err := core.ValidateTableName(table); err != nil {
		return Record{}, r.fail(fmt.Errorf("%w: table %q: %w", ErrHeader, table, err))
	}
	r.table = table
	return Record{Table: table}, nil
}

func (r *Reader) fail(err error) error {
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		err = io.ErrUnexpectedEOF
	}
	return fmt.Errorf("dump line %d: %w", max(r.line, 1), err)
}
