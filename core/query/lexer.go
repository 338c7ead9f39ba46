package query

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// tokKind is the kind of a lexical token of a $filter.
type tokKind uint8

const (
	tokEOF    tokKind = iota
	tokIdent          // a name: a property, an operator or a keyword
	tokString         // 'text', quotes removed and '' unescaped
	tokTyped          // prefix'text': datetime, guid, X, binary
	tokNumber         // 123, 123L, -1.5e3
	tokLParen
	tokRParen
)

// token is one lexical token; pos is its byte offset in the source.
type token struct {
	kind   tokKind
	pos    int
	text   string // the raw text (the name, the number, the prefix of a typed literal)
	value  string // the unquoted text of a string or typed literal
	quoted int    // byte offset of a typed literal's text, for errors inside it
}

// lexer splits a $filter into tokens.
type lexer struct {
	src string
	off int
}

// errAt returns a *SyntaxError for byte offset off of src.
func errAt(src string, off int, sentinel error, format string, args ...any) *SyntaxError {
	off = min(max(off, 0), len(src))
	return &SyntaxError{Pos: utf8.RuneCountInString(src[:off]), Msg: fmt.Sprintf(format, args...), Err: sentinel}
}

// tokens returns every token of src, ending with tokEOF.
func tokens(src string) ([]token, error) {
	lx := &lexer{src: src}
	var out []token
	for {
		t, err := lx.next()
		if err != nil {
			return nil, err
		}
		out = append(out, t)
		if t.kind == tokEOF {
			return out, nil
		}
	}
}

// next returns the next token.
func (lx *lexer) next() (token, error) {
	lx.skipSpace()
	start := lx.off
	if start == len(lx.src) {
		return token{kind: tokEOF, pos: start}, nil
	}
	c := lx.src[start]
	switch {
	case c == '(' || c == ')':
		lx.off++
		kind := tokLParen
		if c == ')' {
			kind = tokRParen
		}
		return token{kind: kind, pos: start, text: string(c)}, nil
	case c == '\'':
		v, err := lx.quoted()
		return token{kind: tokString, pos: start, value: v}, err
	case c == '-' || c >= '0' && c <= '9':
		return lx.number()
	}
	r, _ := utf8.DecodeRuneInString(lx.src[start:])
	if isNameStart(r) {
		return lx.name()
	}
	return token{}, errAt(lx.src, start, ErrFilterSyntax, "unexpected character %q", r)
}

func (lx *lexer) skipSpace() {
	for lx.off < len(lx.src) && strings.IndexByte(" \t\r\n", lx.src[lx.off]) >= 0 {
		lx.off++
	}
}

// quoted reads a quoted text at lx.off; two quotes stand for one.
func (lx *lexer) quoted() (string, error) {
	start := lx.off
	var b strings.Builder
	i := start + 1
	for {
		j := strings.IndexByte(lx.src[i:], '\'')
		if j < 0 {
			return "", errAt(lx.src, start, ErrFilterSyntax, "unterminated quoted literal")
		}
		b.WriteString(lx.src[i : i+j])
		i += j + 1
		if i < len(lx.src) && lx.src[i] == '\'' {
			b.WriteByte('\'')
			i++
			continue
		}
		lx.off = i
		return b.String(), nil
	}
}

// name reads a name, or a typed literal when the name is a literal prefix followed by a quote.
func (lx *lexer) name() (token, error) {
	start := lx.off
	for lx.off < len(lx.src) {
		r, size := utf8.DecodeRuneInString(lx.src[lx.off:])
		if !isNamePart(r) {
			break
		}
		lx.off += size
	}
	t := token{kind: tokIdent, pos: start, text: lx.src[start:lx.off]}
	if lx.off == len(lx.src) || lx.src[lx.off] != '\'' {
		return t, nil
	}
	if literalPrefix(t.text) == "" {
		return token{}, errAt(lx.src, start, ErrFilterSyntax, "unknown literal prefix %q", t.text)
	}
	t.kind, t.quoted = tokTyped, lx.off+1
	v, err := lx.quoted()
	t.value = v
	return t, err
}

// literalPrefix returns the canonical form of a typed-literal prefix, or "" if p is none.
func literalPrefix(p string) string {
	switch {
	case strings.EqualFold(p, "datetime"):
		return "datetime"
	case strings.EqualFold(p, "guid"):
		return "guid"
	case p == "X" || p == "x" || strings.EqualFold(p, "binary"):
		return "binary"
	}
	return ""
}

// number reads -?digits(.digits)?([eE][+-]?digits)?, then an optional L for Int64.
func (lx *lexer) number() (token, error) {
	start, s := lx.off, lx.src
	i := start
	if s[i] == '-' {
		i++
	}
	i, ok := digits(s, i)
	if ok && i < len(s) && s[i] == '.' {
		i, ok = digits(s, i+1)
	}
	if ok && i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		i, ok = digits(s, i)
	}
	if ok && i < len(s) && (s[i] == 'L' || s[i] == 'l') {
		i++
	}
	if ok && i < len(s) {
		r, _ := utf8.DecodeRuneInString(s[i:])
		ok = !isNamePart(r) && r != '.' && r != '\''
	}
	if !ok {
		return token{}, errAt(s, start, ErrFilterSyntax, "malformed number")
	}
	lx.off = i
	return token{kind: tokNumber, pos: start, text: s[start:i]}, nil
}

// digits returns the offset after the run of digits at i and whether there was one.
func digits(s string, i int) (int, bool) {
	j := i
	for j < len(s) && s[j] >= '0' && s[j] <= '9' {
		j++
	}
	return j, j > i
}

func isNameStart(r rune) bool { return r == '_' || unicode.IsLetter(r) }

func isNamePart(r rune) bool {
	return isNameStart(r) || unicode.IsDigit(r) || unicode.In(r, unicode.Nl, unicode.Pc, unicode.Mn, unicode.Mc, unicode.Cf)
}
