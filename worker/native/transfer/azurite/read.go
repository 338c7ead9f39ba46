package azurite

import (
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/goccy/go-json/jsontext"
	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/worker/native/transfer/typedjson"
)

// DefaultAccount is the account Azurite serves unless told otherwise.
const DefaultAccount = "devstoreaccount1"

// tablesCollection is the collection that lists the tables.
const tablesCollection = "$TABLES_COLLECTION$"

// ErrLayout is returned for a file that is not shaped as an Azurite table database.
var ErrLayout = errors.New("not an Azurite table database")

// Read streams the tables of account in the database r: for each table, fn(table, nil),
// then fn(table, e) for each of its entities in the file's order.
func Read(r io.Reader, account string, fn func(table string, e *model.Entity) error) error {
	rd := &reader{dec: jsontext.NewDecoder(r), account: account, names: map[string]string{}, fn: fn}
	return rd.database()
}

type reader struct {
	dec     *jsontext.Decoder
	account string
	names   map[string]string // lowercase collection name → table name
	fn      func(string, *model.Entity) error
	table   string
	n       int
}

// object reads an object, calling member for each member name; member must consume the
// value.
func (r *reader) object(member func(name string) error) error {
	if r.dec.PeekKind() != '{' {
		return fmt.Errorf("%w: object expected at %s", ErrLayout, r.dec.StackPointer())
	}
	if _, err := r.dec.ReadToken(); err != nil {
		return err
	}
	for r.dec.PeekKind() != '}' {
		tok, err := r.dec.ReadToken()
		if err != nil {
			return err
		}
		if err := member(tok.String()); err != nil {
			return err
		}
	}
	_, err := r.dec.ReadToken()
	return err
}

// array reads an array, calling elem for each element; elem must consume it.
func (r *reader) array(elem func() error) error {
	if r.dec.PeekKind() != '[' {
		return fmt.Errorf("%w: array expected at %s", ErrLayout, r.dec.StackPointer())
	}
	if _, err := r.dec.ReadToken(); err != nil {
		return err
	}
	for r.dec.PeekKind() != ']' {
		if err := elem(); err != nil {
			return err
		}
	}
	_, err := r.dec.ReadToken()
	return err
}

func (r *reader) database() error {
	found := false
	err := r.object(func(name string) error {
		if name != "collections" {
			return r.dec.SkipValue()
		}
		found = true
		return r.array(r.collection)
	})
	if err == nil && !found {
		err = fmt.Errorf("%w: no collections", ErrLayout)
	}
	return err
}

// collection reads one collection: the tables list, a table of the account, or another.
func (r *reader) collection() error {
	kind, named := "", false
	return r.object(func(name string) error {
		switch {
		case name == "data" && !named:
			return fmt.Errorf("%w: a collection's data before its name", ErrLayout)
		case name == "name":
			named = true
			tok, err := r.dec.ReadToken()
			if err != nil {
				return err
			}
			kind = r.startCollection(tok.String())
			if kind == "table" {
				return r.fn(r.table, nil)
			}
			return nil
		case name == "data" && kind == "tables":
			return r.array(r.tableDoc)
		case name == "data" && kind == "table":
			return r.array(r.entityDoc)
		}
		return r.dec.SkipValue()
	})
}

// startCollection classifies a collection by name: "tables", "table" (then r.table is
// set) or "".
func (r *reader) startCollection(name string) string {
	if name == tablesCollection {
		return "tables"
	}
	acct, table, ok := strings.Cut(name, "$")
	if !ok || acct != r.account || table == "" || strings.HasPrefix(name, "$") {
		return ""
	}
	if t, ok := r.names[strings.ToLower(name)]; ok {
		table = t
	}
	r.table, r.n = table, 0
	return "table"
}

// tableDoc reads an entry of the tables list: {"account":..., "table":...}.
func (r *reader) tableDoc() error {
	o, err := r.flatDoc()
	if err != nil {
		return err
	}
	acct, _ := o.Text("account")
	table, _ := o.Text("table")
	r.names[strings.ToLower(acct+"$"+table)] = table
	return nil
}

// flatDoc reads a document keeping only its flat members.
func (r *reader) flatDoc() (*typedjson.Object, error) {
	return typedjson.ReadObjectSkipping(r.dec)
}

// entityDoc reads an entity document and passes its entity on.
func (r *reader) entityDoc() error {
	r.n++
	var (
		e        *model.Entity
		modified string
	)
	err := r.object(func(name string) error {
		switch name {
		case "properties":
			o, err := typedjson.ReadObject(r.dec)
			if err != nil {
				return err
			}
			if err := o.Decode(model.TypeGuid.String(), decodeGuid); err != nil {
				return err
			}
			e, err = o.Entity()
			return err
		case "lastModifiedTime":
			tok, err := r.dec.ReadToken()
			modified = tok.String()
			return err
		}
		return r.dec.SkipValue()
	})
	if err != nil {
		return fmt.Errorf("table %s entity %d: %w", r.table, r.n, err)
	}
	if e == nil {
		return fmt.Errorf("%w: table %s entity %d has no properties", ErrLayout, r.table, r.n)
	}
	if e.Timestamp == 0 && modified != "" {
		if d, err := model.ParseDateTime(modified); err == nil {
			e.Timestamp = d
		}
	}
	return r.fn(r.table, e)
}

// decodeGuid undoes Azurite's storing of a Guid as the base64 of its text; a Guid stored
// as text (older Azurite) is kept.
func decodeGuid(text string) (string, error) {
	if _, err := model.ParseGuid(text); err == nil {
		return text, nil
	}
	b, err := base64.StdEncoding.DecodeString(text)
	if err != nil {
		return "", model.ErrValueInvalid
	}
	return string(b), nil
}
