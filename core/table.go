package core

import (
	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/core/stored"
	"strings"
)

// Table describes a table: its name as created, its stored access policies and its
// incarnation.
type Table struct {
	Name     string
	Policies []AccessPolicy
	// Incarnation identifies this table among every table of its name, before and after
	// it: random, made when the table is created, so a table deleted and created again is
	// told apart from the one before (its change feed's checkpoints carry it, see
	// Checkpoint). It is the zero Guid for a table created before tables had one.
	Incarnation model.Guid
}

// AccessPolicy is a stored access policy (a signed identifier of the table's ACL) that a
// shared access signature can name. Times are kept in the text form they were set in.
type AccessPolicy struct {
	ID         string
	Start      string
	Expiry     string
	Permission string
}

// MaxAccessPolicies is the most stored access policies a table may have.
const MaxAccessPolicies = 5

// CreateTable creates a table. The name's case is kept; a table whose name differs only
// in case already existing is ErrTableExists.
func (tx *Tx) CreateTable(name string) (*Table, error) {
	if err := model.ValidateTableName(name); err != nil {
		return nil, err
	}
	key := stored.TableKey(stored.TableID(name))
	if _, ok, err := tx.get(key); err != nil || ok {
		return nil, orErr(err, ErrTableExists)
	}
	t := &Table{Name: name, Incarnation: model.NewGuid()}
	if err := tx.set(key, encodeTable(t)); err != nil {
		return nil, err
	}
	return t, tx.createDeclaredIndexes(name)
}

// Table returns the table of that name, compared case-insensitively.
func (tx *Tx) Table(name string) (*Table, error) {
	if model.ValidateTableName(name) != nil {
		return nil, ErrTableNotFound
	}
	v, ok, err := tx.get(stored.TableKey(stored.TableID(name)))
	if err != nil || !ok {
		return nil, orErr(err, ErrTableNotFound)
	}
	return decodeTable(v)
}

// hasTable returns ErrTableNotFound unless the table exists. Unlike Table it decodes
// nothing, for the reads that only need to know.
func (tx *Tx) hasTable(name string) error {
	if model.ValidateTableName(name) != nil {
		return ErrTableNotFound
	}
	_, ok, err := tx.get(stored.TableKey(stored.TableID(name)))
	if err != nil || !ok {
		return orErr(err, ErrTableNotFound)
	}
	return nil
}

// DeleteTable deletes a table, every entity in it and its indexes.
func (tx *Tx) DeleteTable(name string) error {
	if _, err := tx.Table(name); err != nil {
		return err
	}
	id := stored.TableID(name)
	if err := tx.dropIndexes(id); err != nil {
		return err
	}
	if err := tx.deletePrefix(stored.TableEntities(id)); err != nil {
		return err
	}
	if err := tx.recordTableDeletion(id); err != nil {
		return err
	}
	if h := tx.store.opts.Hooks; h != nil {
		if err := h.DropTable(tx, id); err != nil {
			return err
		}
	}
	return tx.del(stored.TableKey(id))
}

// SetAccessPolicies replaces a table's stored access policies (at most five).
func (tx *Tx) SetAccessPolicies(name string, policies []AccessPolicy) error {
	t, err := tx.Table(name)
	if err != nil {
		return err
	}
	if len(policies) > MaxAccessPolicies {
		return ErrTooManyPolicies
	}
	t.Policies = policies
	return tx.set(stored.TableKey(stored.TableID(name)), encodeTable(t))
}

// Tables calls fn for each table whose lowercase name sorts after after ("" for all), in
// order of lowercase name, until fn returns false.
func (tx *Tx) Tables(after string, fn func(t *Table) bool) error {
	from := stored.TablePrefix
	if after != "" {
		from = stored.TableKey(stored.TableID(after)) + "\x00"
	}
	var derr error
	err := tx.ascend(from, "t\x01", func(_, v string) bool {
		t, err := decodeTable(v)
		if err != nil {
			derr = err
			return false
		}
		return fn(t)
	})
	return orErr(err, derr)
}

// orErr returns err if it is set, else alt.
func orErr(err, alt error) error {
	if err != nil {
		return err
	}
	return alt
}

// tableIncarnationMark starts a table record that holds an incarnation: a byte no record
// before incarnations starts with, since those start with the uvarint length of a table
// name, never 0.
const tableIncarnationMark = 0

// encodeTable returns the stored form of a table record: uvarint-prefixed strings, the
// name first, then four per access policy; a table with an incarnation has the mark byte
// and the incarnation's 16 bytes before them.
func encodeTable(t *Table) string {
	var b []byte
	if t.Incarnation != (model.Guid{}) {
		b = append(append(b, tableIncarnationMark), t.Incarnation[:]...)
	}
	b = stored.AppendString(b, t.Name)
	for _, p := range t.Policies {
		b = stored.AppendString(b, p.ID)
		b = stored.AppendString(b, p.Start)
		b = stored.AppendString(b, p.Expiry)
		b = stored.AppendString(b, p.Permission)
	}
	return string(b)
}

// decodeTable reads a table record that encodeTable stored; a malformed one is
// stored.ErrCorrupt.
func decodeTable(v string) (*Table, error) {
	var g model.Guid
	if len(v) > 0 && v[0] == tableIncarnationMark {
		if len(v) < 1+len(g) {
			return nil, stored.ErrCorrupt
		}
		v = v[1+copy(g[:], v[1:]):]
	}
	d := tableReader{s: v}
	t := &Table{Name: d.str(), Incarnation: g}
	for len(d.s) > 0 && !d.err {
		t.Policies = append(t.Policies, AccessPolicy{ID: d.str(), Start: d.str(), Expiry: d.str(), Permission: d.str()})
	}
	if d.err || t.Name == "" || strings.ContainsRune(t.Name, 0) { // "" would encode as the incarnation mark
		return nil, stored.ErrCorrupt
	}
	return t, nil
}

// tableReader reads the strings of a table record in turn; a short or malformed one sets
// err, and every read after it returns "".
type tableReader struct {
	s   string
	err bool
}

func (d *tableReader) str() string {
	v, rest, ok := stored.ReadString(d.s)
	d.s, d.err = rest, d.err || !ok
	return v
}
