package main

import (
	"bytes"
	"fmt"
	"iter"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/model"
	"github.com/tabletopdb/tabletop/core/stored"
	"github.com/tabletopdb/tabletop/core/wire"
)

// The Tabletop dump format, version 1: newline-delimited JSON, a section per table whose
// first line is the header {"format":"tabletop-dump","version":1,"table":"name"} and
// whose other lines are its entities in Azure's wire form with every type annotated
// (wire.Context.Exact): a Double 5.0 stays a Double, an Int64 a decimal string, a
// DateTime keeps its 100 ns. A whole store is the concatenation of its tables' sections.

// export answers the dump of the tables named by the arguments, of every table if none,
// in one consistent view.
func (s *store) export(a [][]byte) ([]byte, error) {
	b := s.scratch[:0]
	err := s.db.View(func(tx *core.Tx) error {
		names, err := exportNames(tx, a)
		if err != nil {
			return err
		}
		for _, name := range names {
			if b, err = appendSection(b, tx, name); err != nil {
				return err
			}
		}
		return nil
	})
	return b, err
}

// exportNames resolves the tables to export to their names as created.
func exportNames(tx *core.Tx, a [][]byte) ([]string, error) {
	var names []string
	if len(a) == 0 {
		err := tx.Tables("", func(t *core.Table) bool {
			names = append(names, t.Name)
			return true
		})
		return names, err
	}
	for i := range a {
		t, err := tx.Table(arg(a, i))
		if err != nil {
			return nil, err
		}
		names = append(names, t.Name)
	}
	return names, nil
}

// appendSection appends one table's header and entity lines.
func appendSection(b []byte, tx *core.Tx, name string) ([]byte, error) {
	b = append(wire.AppendDumpHeader(b, name), '\n')
	c := &wire.Context{Exact: true}
	err := tx.Scan(name, stored.WholeTable, func(e *model.Entity) bool {
		b = append(wire.AppendEntity(b, e, c), '\n')
		return true
	})
	return b, err
}

// importDump writes the entities of a dump (the one argument, its text) into their
// tables, creating the tables that do not exist and replacing entities that do, all in
// one transaction: a line that is not valid fails the whole import, naming the line. It
// answers {"tables":["name",…],"entities":n}, the tables as their headers name them.
func (s *store) importDump(a [][]byte) ([]byte, error) {
	var tables []string
	entities := 0
	err := s.db.Update(func(tx *core.Tx) error {
		table := ""
		for n, line := range dumpLines(firstArg(a)) {
			name, isHeader, err := parseHeader(line)
			if err == nil && isHeader {
				table, tables = name, append(tables, name)
				err = ensureTable(tx, name)
			} else if err == nil {
				entities++
				err = importEntity(tx, table, line)
			}
			if err != nil {
				return fmt.Errorf("import dump: line %d: %w", n+1, err)
			}
		}
		return nil
	})
	if need, ok := asNeed(err); ok {
		return nil, s.needsOfDump(need, firstArg(a))
	}
	if err != nil {
		return nil, err
	}
	b := []byte(`{"tables":[`)
	for i, t := range tables {
		if i > 0 {
			b = append(b, ',')
		}
		b = wire.AppendString(b, t)
	}
	return fmt.Appendf(b, `],"entities":%d}`, entities), nil
}

func firstArg(a [][]byte) []byte {
	if len(a) == 0 {
		return nil
	}
	return a[0]
}

// parseHeader reports whether line is a section header and the table it names. A line
// that names another format is not a header: it is read as an entity.
func parseHeader(line []byte) (table string, ok bool, err error) {
	if !bytes.Contains(line, []byte(`"`+wire.DumpFormat+`"`)) {
		return "", false, nil
	}
	h, ok, err := wire.DecodeDumpHeader(line)
	switch {
	case err != nil || !ok:
		return "", false, err
	case h.Version > 1:
		return "", false, ErrDumpVersion
	case h.Version < 1 || h.Table == "":
		return "", false, ErrDumpHeaderInvalid
	}
	return h.Table, true, nil
}

func ensureTable(tx *core.Tx, name string) error {
	if _, err := tx.Table(name); err == nil {
		return nil
	}
	_, err := tx.CreateTable(name)
	return err
}

// dumpLines yields the lines of dump that are not blank, trimmed, each with its index
// (the line's number less one).
func dumpLines(dump []byte) iter.Seq2[int, []byte] {
	return func(yield func(int, []byte) bool) {
		for n, line := range bytes.Split(dump, []byte{'\n'}) {
			if line = bytes.TrimSpace(line); len(line) > 0 && !yield(n, line) {
				return
			}
		}
	}
}

// needsOfDump is needsOf for an import of dump: the entity and deletion keys of each of
// its entities, in dump order. The dump is read again only on this path, where it failed.
func (s *store) needsOfDump(need *core.NeedRangeError, dump []byte) *core.NeedRangeError {
	return s.needsOf(need, func(yield func(key, rk string) bool) {
		id := ""
		for _, line := range dumpLines(dump) {
			name, isHeader, err := parseHeader(line)
			if err == nil && isHeader {
				id = stored.TableID(name)
				continue
			}
			e, err := wire.DecodeEntity(line)
			if err != nil || id == "" {
				continue // the import reports it once its ranges are loaded
			}
			pk, rk := e.PartitionKey, e.RowKey
			if !yield(stored.EntityKey(id, pk, rk), rk) || !yield(stored.DeletionKey(id, pk, rk), rk) {
				return
			}
		}
	})
}

// importEntity replaces (or inserts) one entity line in table; its Timestamp is new.
func importEntity(tx *core.Tx, table string, line []byte) error {
	if table == "" {
		return ErrDumpHeaderMissing
	}
	e, err := wire.DecodeEntity(line)
	if err != nil {
		return err
	}
	_, err = tx.Apply(table, core.Op{Kind: core.OpInsertOrReplace, Entity: e})
	return err
}
