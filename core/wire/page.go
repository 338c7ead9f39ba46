package wire

import "github.com/tabletopdb/tabletop/core/model"

// Page is a page of a remote table as a sync client reads it: the body of Query Entities
// or of Tabletop's change feed (GET /{table}()?comp=changes), decoded with every value
// typed as DecodeEntity types it.
type Page struct {
	// Entities holds "value": each entity with its "odata.etag".
	Entities []RemoteEntity
	// Deleted holds the keys of "tabletop.deleted" (the change feed's deletions).
	Deleted []model.Key
	// Checkpoint is "tabletop.checkpoint"; HasCheckpoint reports whether the body had it
	// (an endpoint without the change feed answers without it).
	Checkpoint    string
	HasCheckpoint bool
	// More is "tabletop.more".
	More bool
}

// RemoteEntity is an entity as a remote server holds it, with the server's ETag.
type RemoteEntity struct {
	Entity *model.Entity
	ETag   string
}

const (
	checkpointMember = "tabletop.checkpoint"
	moreMember       = "tabletop.more"
	deletedMember    = "tabletop.deleted"
	etagMember       = "odata.etag"
)

// DecodePage parses a page body. Members other than those of Page are skipped.
func DecodePage(data []byte) (*Page, error) {
	p := &Page{}
	sc := scanner{data: data}
	err := sc.topObject(func(key span) error {
		switch string(sc.text(key)) {
		case "value":
			return sc.array(func(raw []byte) error { return p.addEntity(raw) })
		case deletedMember:
			return sc.array(func(raw []byte) error { return p.addDeleted(raw) })
		case checkpointMember:
			text, err := sc.stringValue()
			p.Checkpoint, p.HasCheckpoint = text, err == nil
			return err
		case moreMember:
			k, _, _, err := sc.value()
			p.More = k == kindTrue
			return err
		}
		return sc.skip(0)
	})
	if err != nil {
		return nil, err
	}
	return p, nil
}

func (p *Page) addEntity(raw []byte) error {
	e, err := DecodeEntity(raw)
	if err != nil {
		return err
	}
	etag, err := etagOf(raw)
	if err != nil {
		return err
	}
	p.Entities = append(p.Entities, RemoteEntity{Entity: e, ETag: etag})
	return nil
}

func (p *Page) addDeleted(raw []byte) error {
	e, err := DecodeEntity(raw)
	if err != nil {
		return err
	}
	p.Deleted = append(p.Deleted, model.Key{PartitionKey: e.PartitionKey, RowKey: e.RowKey})
	return nil
}

// etagOf returns the "odata.etag" member of an entity object, "" if it has none.
func etagOf(raw []byte) (string, error) {
	sc := scanner{data: raw}
	etag := ""
	err := sc.topObject(func(key span) error {
		if string(sc.text(key)) != etagMember {
			return sc.skip(0)
		}
		text, err := sc.stringValue()
		etag = text
		return err
	})
	return etag, err
}

// stringValue scans a string value and returns it.
func (s *scanner) stringValue() (string, error) {
	mark := len(s.buf)
	defer func() { s.buf = s.buf[:mark] }()
	k, sp, _, err := s.value()
	if err != nil {
		return "", err
	}
	if k != kindString {
		return "", s.fail("expected a string")
	}
	return string(s.text(sp)), nil
}

// array scans an array of objects (or null), calling fn with each object's text.
func (s *scanner) array(fn func(raw []byte) error) error {
	if s.peek() == 'n' {
		return s.literal("null")
	}
	if s.peek() != '[' {
		return s.fail("expected an array")
	}
	s.pos++
	if s.peek() == ']' {
		s.pos++
		return nil
	}
	for {
		if s.peek() != '{' {
			return s.fail("expected an object")
		}
		start := s.pos
		if err := s.skip(0); err != nil {
			return err
		}
		if err := fn(s.data[start:s.pos]); err != nil {
			return err
		}
		switch s.peek() {
		case ',':
			s.pos++
		case ']':
			s.pos++
			return nil
		default:
			return s.fail("expected ',' or ']'")
		}
	}
}
