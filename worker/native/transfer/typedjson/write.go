package typedjson

import (
	"github.com/goccy/go-json/jsontext"
	"github.com/tabletopdb/tabletop/core"
)

// WriteEntity writes e to enc as one JSON object with full type annotations: the keys,
// the annotated Timestamp (omitted when zero), then each property in stored order.
func WriteEntity(enc *jsontext.Encoder, e *core.Entity) error {
	w := writer{enc: enc}
	w.token(jsontext.BeginObject)
	w.member(core.PartitionKeyName, core.StringValue(e.PartitionKey))
	w.member(core.RowKeyName, core.StringValue(e.RowKey))
	if e.Timestamp != 0 {
		w.member(core.TimestampName, core.DateTimeValue(e.Timestamp))
	}
	for _, p := range e.Properties {
		w.member(p.Name, p.Value)
	}
	w.token(jsontext.EndObject)
	return w.err
}

// writer writes tokens until the first error, which it keeps.
type writer struct {
	enc     *jsontext.Encoder
	err     error
	scratch []byte
}

func (w *writer) token(t jsontext.Token) {
	if w.err == nil {
		w.err = w.enc.WriteToken(t)
	}
}

func (w *writer) value(v jsontext.Value) {
	if w.err == nil {
		w.err = w.enc.WriteValue(v)
	}
}

// member writes name's annotation when its type needs one, then name and its value.
func (w *writer) member(name string, v core.Value) {
	t := v.Type()
	if t != core.TypeString && t != core.TypeBoolean {
		w.token(jsontext.String(name + annotation))
		w.token(jsontext.String(t.String()))
	}
	w.token(jsontext.String(name))
	switch t {
	case core.TypeString:
		w.token(jsontext.String(v.Str()))
	case core.TypeBoolean:
		w.token(jsontext.Bool(v.Bool()))
	case core.TypeInt32:
		w.value(jsontext.Value(v.Text()))
	case core.TypeDouble:
		w.double(v.Double())
	default: // Int64, DateTime, Guid and Binary travel as strings
		w.token(jsontext.String(v.Text()))
	}
}

// double writes a finite Double as a JSON number in core.FormatDouble's form ("5.0"),
// NaN and the infinities as strings.
func (w *writer) double(f float64) {
	w.scratch = core.AppendDouble(w.scratch[:0], f)
	if c := w.scratch[0]; c == 'N' || c == 'I' || (c == '-' && w.scratch[1] == 'I') {
		w.token(jsontext.String(string(w.scratch)))
		return
	}
	w.value(jsontext.Value(w.scratch))
}
