package typedjson

import (
	"strconv"

	"github.com/goccy/go-json/jsontext"
	"github.com/tabletopdb/tabletop/core/model"
)

// WriteEntity writes e to enc as one JSON object with full type annotations: the keys,
// the annotated Timestamp (omitted when zero), then each property in stored order.
func WriteEntity(enc *jsontext.Encoder, e *model.Entity) error {
	w := writer{enc: enc}
	w.token(jsontext.BeginObject)
	w.member(model.PartitionKeyName, model.StringValue(e.PartitionKey))
	w.member(model.RowKeyName, model.StringValue(e.RowKey))
	if e.Timestamp != 0 {
		w.member(model.TimestampName, model.DateTimeValue(e.Timestamp))
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

func (w *writer) value(v []byte) {
	if w.err == nil {
		w.err = w.enc.WriteValue(jsontext.Value(v))
	}
}

// member writes name's annotation when its type needs one, then name and its value.
func (w *writer) member(name string, v model.Value) {
	t := v.Type()
	if t != model.TypeString && t != model.TypeBoolean {
		w.annotation(name)
		w.token(jsontext.String(t.String()))
	}
	w.token(jsontext.String(name))
	switch t {
	case model.TypeString:
		w.token(jsontext.String(v.Str()))
	case model.TypeBoolean:
		w.token(jsontext.Bool(v.Bool()))
	case model.TypeInt32:
		w.value(strconv.AppendInt(w.scratch[:0], int64(v.Int32()), 10))
	case model.TypeInt64:
		w.quoted(strconv.AppendInt(append(w.scratch[:0], '"'), v.Int64(), 10))
	case model.TypeDateTime:
		w.quoted(v.DateTime().AppendText(append(w.scratch[:0], '"')))
	case model.TypeGuid:
		w.quoted(v.Guid().AppendText(append(w.scratch[:0], '"')))
	case model.TypeDouble:
		w.double(v.Double())
	default: // Binary travels as a base64 string
		w.token(jsontext.String(v.Text()))
	}
}

// annotation writes the member name "name@odata.type".
func (w *writer) annotation(name string) {
	b, err := jsontext.AppendQuote(w.scratch[:0], name)
	if err != nil {
		w.token(jsontext.String(name + annotation)) // invalid UTF-8: let the encoder say so
		return
	}
	w.scratch = append(append(b[:len(b)-1], annotation...), '"')
	w.value(w.scratch)
}

// quoted closes the string b (its opening quote and text, which need no escaping) and
// writes it.
func (w *writer) quoted(b []byte) {
	w.scratch = append(b, '"')
	w.value(w.scratch)
}

// double writes a finite Double as a JSON number in model.FormatDouble's form ("5.0"),
// NaN and the infinities as strings.
func (w *writer) double(f float64) {
	w.scratch = model.AppendDouble(w.scratch[:0], f)
	if c := w.scratch[0]; c == 'N' || c == 'I' || (c == '-' && w.scratch[1] == 'I') {
		w.token(jsontext.String(string(w.scratch)))
		return
	}
	w.value(w.scratch)
}
