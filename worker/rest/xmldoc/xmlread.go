package xmldoc

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// errMalformed means a document is not well-formed XML.
var errMalformed = errors.New("malformed xml")

// maxDepth bounds the nesting of elements, as encoding/xml bounds it.
const maxDepth = 10000

// element is one XML element: its local name (any namespace prefix dropped, as the
// documents' elements match in any namespace), its child elements in order, and its own
// character data (text and CDATA, line endings normalized to "\n"; the text of child
// elements is theirs).
type element struct {
	name     string
	children []*element
	text     []byte
}

// parseRoot reads the root element of a document, strictly as encoding/xml reads it:
// before the root, a declaration (version 1.0, UTF-8), processing instructions,
// comments, directives and character data are allowed and skipped; entities are the five
// predefined ones and character references; every character must be one XML allows.
// What follows the root element is not read, as encoding/xml's Decode leaves it.
func parseRoot(b []byte) (*element, error) {
	r := &xmlReader{b: b}
	for {
		if r.pos >= len(r.b) {
			return nil, r.fail("no root element")
		}
		if r.b[r.pos] != '<' {
			if _, err := r.text(); err != nil {
				return nil, err
			}
			continue
		}
		if done, err := r.misc(nil); err != nil || done {
			if err != nil {
				return nil, err
			}
			continue
		}
		if r.has("</") {
			return nil, r.fail("unexpected end element")
		}
		return r.element(0)
	}
}

// xmlReader reads a document held in memory.
type xmlReader struct {
	b   []byte
	pos int
}

func (r *xmlReader) fail(format string, args ...any) error {
	return fmt.Errorf("xml at byte %d: %s: %w", r.pos, fmt.Sprintf(format, args...), errMalformed)
}

func (r *xmlReader) has(s string) bool { return bytes.HasPrefix(r.b[r.pos:], []byte(s)) }

// misc reads a comment, processing instruction, CDATA section (its data appended to e's
// text; e is nil outside the root) or directive at r.pos, and reports whether there was one.
func (r *xmlReader) misc(e *element) (bool, error) {
	switch {
	case r.has("<!--"):
		return true, r.comment()
	case r.has("<![CDATA["):
		r.pos += len("<![CDATA[")
		end := bytes.Index(r.b[r.pos:], []byte("]]>"))
		if end < 0 {
			return true, r.fail("unexpected EOF in CDATA section")
		}
		data, err := r.decode(r.b[r.pos:r.pos+end], false)
		r.pos += end + 3
		if e != nil {
			e.text = append(e.text, data...)
		}
		return true, err
	case r.has("<?"):
		return true, r.procInst()
	case r.has("<!-"):
		return true, r.fail("invalid sequence <!- not part of <!--")
	case r.has("<!["):
		return true, r.fail("invalid <![ sequence")
	case r.has("<!"):
		return true, r.directive()
	}
	return false, nil
}

// element reads an element and what it holds, r.pos being at its "<".
func (r *xmlReader) element(depth int) (*element, error) {
	if depth >= maxDepth {
		return nil, r.fail("exceeded max depth")
	}
	r.pos++
	name, err := r.name()
	if err != nil {
		return nil, err
	}
	e := &element{name: localName(name)}
	closed, err := r.attributes()
	if err != nil || closed {
		return e, err
	}
	for {
		if r.pos >= len(r.b) {
			return nil, r.fail("unexpected EOF in element %s", name)
		}
		if r.b[r.pos] != '<' {
			t, err := r.text()
			if err != nil {
				return nil, err
			}
			e.text = append(e.text, t...)
			continue
		}
		if r.has("</") {
			return e, r.endTag(name)
		}
		if done, err := r.misc(e); err != nil || done {
			if err != nil {
				return nil, err
			}
			continue
		}
		child, err := r.element(depth + 1)
		if err != nil {
			return nil, err
		}
		e.children = append(e.children, child)
	}
}

// attributes reads an element's attributes (checked and dropped) up to ">" or "/>"; it
// reports whether the element closed itself.
func (r *xmlReader) attributes() (closed bool, err error) {
	for {
		r.space()
		switch {
		case r.pos >= len(r.b):
			return false, r.fail("unexpected EOF in start element")
		case r.has("/>"):
			r.pos += 2
			return true, nil
		case r.b[r.pos] == '>':
			r.pos++
			return false, nil
		}
		if _, err := r.name(); err != nil {
			return false, err
		}
		r.space()
		if r.pos >= len(r.b) || r.b[r.pos] != '=' {
			return false, r.fail("attribute name without = in element")
		}
		r.pos++
		r.space()
		if r.pos >= len(r.b) || (r.b[r.pos] != '"' && r.b[r.pos] != '\'') {
			return false, r.fail("unquoted or missing attribute value in element")
		}
		quote := r.b[r.pos]
		end := bytes.IndexByte(r.b[r.pos+1:], quote)
		if end < 0 {
			return false, r.fail("unexpected EOF in attribute value")
		}
		value := r.b[r.pos+1 : r.pos+1+end]
		if bytes.IndexByte(value, '<') >= 0 {
			return false, r.fail("unescaped < inside quoted string")
		}
		if _, err := r.decode(value, true); err != nil {
			return false, err
		}
		r.pos += end + 2
	}
}

// endTag reads "</name>", which must close the element named open.
func (r *xmlReader) endTag(open string) error {
	r.pos += 2
	name, err := r.name()
	if err != nil {
		return err
	}
	r.space()
	if r.pos >= len(r.b) || r.b[r.pos] != '>' {
		return r.fail("invalid characters between </%s and >", name)
	}
	r.pos++
	if name != open {
		return r.fail("element <%s> closed by </%s>", open, name)
	}
	return nil
}

// text reads character data up to the next "<" or the end.
func (r *xmlReader) text() ([]byte, error) {
	end := bytes.IndexByte(r.b[r.pos:], '<')
	if end < 0 {
		end = len(r.b) - r.pos
	}
	raw := r.b[r.pos : r.pos+end]
	out, err := r.decode(raw, true)
	r.pos += end
	return out, err
}

// decode decodes raw character data: entities and the "]]>" it may not hold (unless it is
// a CDATA section's), line endings, and the characters XML allows.
func (r *xmlReader) decode(raw []byte, entities bool) ([]byte, error) {
	out := make([]byte, 0, len(raw))
	for i := 0; i < len(raw); {
		c := raw[i]
		switch {
		case c == ']' && entities && bytes.HasPrefix(raw[i:], []byte("]]>")):
			return nil, r.fail("unescaped ]]> not in CDATA section")
		case c == '&' && entities:
			semi := bytes.IndexByte(raw[i:], ';')
			if semi < 0 {
				return nil, r.fail("invalid character entity (no semicolon)")
			}
			s, ok := entity(string(raw[i+1 : i+semi]))
			if !ok {
				return nil, r.fail("invalid character entity &%s;", raw[i+1:i+semi])
			}
			// A character reference must name a character XML allows, as written text
			// must (&#0; is not one); a surrogate's reference reads as U+FFFD, which is.
			if rn, _ := utf8.DecodeRuneInString(s); !inCharacterRange(rn) {
				return nil, r.fail("illegal character code U+%04X", rn)
			}
			out = append(out, s...)
			i += semi + 1
		case c == '\r':
			out = append(out, '\n')
			i++
			if i < len(raw) && raw[i] == '\n' {
				i++
			}
		default:
			rn, size := utf8.DecodeRune(raw[i:])
			if rn == utf8.RuneError && size == 1 {
				return nil, r.fail("invalid UTF-8")
			}
			if !inCharacterRange(rn) {
				return nil, r.fail("illegal character code U+%04X", rn)
			}
			out = append(out, raw[i:i+size]...)
			i += size
		}
	}
	return out, nil
}

// entity is the text of a predefined entity or a character reference (without & and ;).
func entity(name string) (string, bool) {
	switch name {
	case "lt":
		return "<", true
	case "gt":
		return ">", true
	case "amp":
		return "&", true
	case "apos":
		return "'", true
	case "quot":
		return `"`, true
	}
	num, ok := strings.CutPrefix(name, "#")
	if !ok {
		return "", false
	}
	base := 10
	if hex, ok := strings.CutPrefix(num, "x"); ok {
		num, base = hex, 16
	}
	n, err := strconv.ParseUint(num, base, 64)
	if err != nil || n > utf8.MaxRune {
		return "", false
	}
	return string(rune(n)), true
}

// inCharacterRange reports whether XML allows the character r (XML 1.0, production 2).
func inCharacterRange(r rune) bool {
	return r == 0x09 || r == 0x0A || r == 0x0D || r >= 0x20 && r <= 0xD7FF ||
		r >= 0xE000 && r <= 0xFFFD || r >= 0x10000 && r <= 0x10FFFF
}

// name reads an XML name at r.pos.
func (r *xmlReader) name() (string, error) {
	start := r.pos
	for r.pos < len(r.b) && isNameByte(r.b[r.pos]) {
		r.pos++
	}
	if r.pos == start {
		return "", r.fail("expected a name")
	}
	name := string(r.b[start:r.pos])
	if c := name[0]; c == '-' || c == '.' || '0' <= c && c <= '9' {
		return "", r.fail("invalid name %q", name)
	}
	if !utf8.ValidString(name) {
		return "", r.fail("invalid UTF-8 in name")
	}
	return name, nil
}

// isNameByte reports whether c may be part of a name: ASCII letters, digits, _ : . -
// and any byte of a multibyte character.
func isNameByte(c byte) bool {
	return 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' ||
		c == '_' || c == ':' || c == '.' || c == '-' || c >= utf8.RuneSelf
}

// localName drops a namespace prefix ("p:Local"), as element names are matched.
func localName(name string) string {
	if i := strings.IndexByte(name, ':'); i >= 1 && i < len(name)-1 {
		return name[i+1:]
	}
	return name
}

func (r *xmlReader) space() {
	for r.pos < len(r.b) && (r.b[r.pos] == ' ' || r.b[r.pos] == '\t' || r.b[r.pos] == '\r' || r.b[r.pos] == '\n') {
		r.pos++
	}
}

// comment skips "<!-- … -->"; "--" may not appear inside.
func (r *xmlReader) comment() error {
	r.pos += 4
	end := bytes.Index(r.b[r.pos:], []byte("--"))
	if end < 0 {
		return r.fail("unexpected EOF in comment")
	}
	r.pos += end + 2
	if r.pos >= len(r.b) || r.b[r.pos] != '>' {
		return r.fail(`invalid sequence "--" not allowed in comments`)
	}
	r.pos++
	return nil
}

// procInst skips "<?target …?>"; the XML declaration must name version 1.0 and UTF-8 if
// it names them.
func (r *xmlReader) procInst() error {
	r.pos += 2
	target, err := r.name()
	if err != nil {
		return err
	}
	end := bytes.Index(r.b[r.pos:], []byte("?>"))
	if end < 0 {
		return r.fail("unexpected EOF in processing instruction")
	}
	content := string(r.b[r.pos : r.pos+end])
	r.pos += end + 2
	if target != "xml" {
		return nil
	}
	if v := declParam(content, "version"); v != "" && v != "1.0" {
		return r.fail("unsupported version %q; only version 1.0 is supported", v)
	}
	if enc := declParam(content, "encoding"); enc != "" && !strings.EqualFold(enc, "utf-8") {
		return r.fail("encoding %q declared, only UTF-8 is read", enc)
	}
	return nil
}

// declParam is the value of param="…" (or '…') in an XML declaration's content, found as
// encoding/xml finds it: the first `param=` followed by a quote.
func declParam(content, param string) string {
	param += "="
	for i := 0; i < len(content); {
		sub := content[i:]
		k := strings.Index(sub, param)
		if k < 0 || len(param)+k >= len(sub) {
			return ""
		}
		i += len(param) + k + 1
		if q := sub[len(param)+k]; q == '\'' || q == '"' {
			value, _, ok := strings.Cut(content[i:], string(q))
			if !ok {
				return ""
			}
			return value
		}
	}
	return ""
}

// directive skips "<! … >" (such as a DOCTYPE) as encoding/xml reads one: its first byte
// as it is, then up to the ">" outside quotes and nested angle brackets, "<!-- … -->"
// inside being a comment.
func (r *xmlReader) directive() error {
	r.pos += 3 // "<!" and the first byte
	if r.pos > len(r.b) {
		return r.fail("unexpected EOF in directive")
	}
	var inquote byte
	depth := 0
	next := func() (byte, bool) {
		if r.pos >= len(r.b) {
			return 0, false
		}
		r.pos++
		return r.b[r.pos-1], true
	}
	for {
		b, ok := next()
		if !ok {
			return r.fail("unexpected EOF in directive")
		}
		if inquote == 0 && b == '>' && depth == 0 {
			return nil
		}
	handle:
		switch {
		case b == inquote:
			inquote = 0
		case inquote != 0:
		case b == '\'' || b == '"':
			inquote = b
		case b == '>':
			depth--
		case b == '<':
			for i := 0; i < 3; i++ {
				if b, ok = next(); !ok {
					return r.fail("unexpected EOF in directive")
				}
				if b != "!--"[i] {
					depth++
					goto handle
				}
			}
			var b0, b1 byte
			for {
				if b, ok = next(); !ok {
					return r.fail("unexpected EOF in comment")
				}
				if b0 == '-' && b1 == '-' && b == '>' {
					break
				}
				b0, b1 = b1, b
			}
		}
	}
}

// xmlErrorf is an errMalformed error saying what was wrong.
func xmlErrorf(format string, args ...any) error {
	return fmt.Errorf(format+": %w", append(args, errMalformed)...)
}
