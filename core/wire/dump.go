package wire

import "strconv"

// DumpFormat is the "format" member of a Tabletop dump's section header.
const DumpFormat = "tabletop-dump"

// DumpHeader is the first line of a table's section in a Tabletop dump (newline-delimited
// JSON): {"format":"tabletop-dump","version":1,"table":"people"}. The entity lines after
// it are written by AppendEntity with Context.Exact.
type DumpHeader struct {
	Version int
	Table   string
}

// AppendDumpHeader appends the header line of table's section, without the newline.
func AppendDumpHeader(b []byte, table string) []byte {
	b = append(b, `{"format":"tabletop-dump","version":1,"table":`...)
	return append(AppendString(b, table), '}')
}

// DecodeDumpHeader reads a line that may be a section header. ok is false for a JSON
// object whose "format" is not DumpFormat (an entity line); members it does not know are
// ignored, in any order. Version is 0 when the line has none, or not an integer.
func DecodeDumpHeader(line []byte) (h DumpHeader, ok bool, err error) {
	sc := scanner{data: line}
	err = sc.topObject(func(key span) error {
		name := string(sc.text(key))
		if name != "format" && name != "version" && name != "table" {
			return sc.skip(0)
		}
		k, sp, integral, err := sc.value()
		if err != nil || k == kindNested {
			return orSkip(err, &sc)
		}
		text := string(sc.text(sp))
		switch {
		case name == "format":
			ok = k == kindString && text == DumpFormat
		case name == "table" && k == kindString:
			h.Table = text
		case name == "version" && k == kindNumber && integral:
			h.Version, _ = strconv.Atoi(text)
		}
		return nil
	})
	if err != nil {
		return DumpHeader{}, false, err
	}
	return h, ok, nil
}

// orSkip returns err, or skips the nested value the scanner stands on.
func orSkip(err error, sc *scanner) error {
	if err != nil {
		return err
	}
	return sc.skip(0)
}
