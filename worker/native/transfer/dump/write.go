package dump

import (
	"io"

	"github.com/goccy/go-json/jsontext"
	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/worker/native/transfer/typedjson"
)

// Writer writes a dump's lines to an io.Writer; each call writes whole lines.
type Writer struct {
	enc *jsontext.Encoder
}

// NewWriter returns a Writer to w. Wrap w in a buffer: the writer writes line by line.
func NewWriter(w io.Writer) *Writer { return &Writer{enc: jsontext.NewEncoder(w)} }

// Header writes the header line of table's section.
func (w *Writer) Header(table string) error {
	for _, t := range []jsontext.Token{
		jsontext.BeginObject,
		jsontext.String("format"), jsontext.String(Format),
		jsontext.String("version"), jsontext.Int(Version),
		jsontext.String("table"), jsontext.String(table),
		jsontext.EndObject,
	} {
		if err := w.enc.WriteToken(t); err != nil {
			return err
		}
	}
	return nil
}

// Entity writes an entity line.
func (w *Writer) Entity(e *model.Entity) error { return typedjson.WriteEntity(w.enc, e) }
