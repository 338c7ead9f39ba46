package query

import (
	"strings"

	"github.com/tabletopdb/tabletop/core/model"
)

// MaxComparisons is the most comparisons a filter may hold, as in Azure.
const MaxComparisons = 15

// maxDepth bounds the nesting of parentheses and "not", so no input exhausts the stack.
const maxDepth = 64

// Filter is a parsed $filter. The nil *Filter matches everything.
type Filter struct {
	root node
	cmps int
}

// ParseFilter parses an OData $filter for Query Entities or Query Tables ("" gives the
// nil filter, which matches all). Errors are *SyntaxError values wrapping
// ErrFilterSyntax, ErrLiteralOutOfRange or ErrTooManyComparisons.
func ParseFilter(s string) (*Filter, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	toks, err := tokens(s)
	if err != nil {
		return nil, err
	}
	p := &parser{src: s, toks: toks}
	root, err := p.or()
	if err != nil {
		return nil, err
	}
	if t := p.peek(); t.kind != tokEOF {
		return nil, p.unexpected(t, "'and', 'or' or the end")
	}
	return &Filter{root: root, cmps: p.cmps}, nil
}

// String returns the filter in canonical form: every and/or parenthesized, constants on
// the right. It parses back to an equivalent filter. The nil filter gives "".
func (f *Filter) String() string {
	if f == nil {
		return ""
	}
	var b strings.Builder
	f.root.write(&b)
	return b.String()
}

// Comparisons returns how many comparisons the filter holds.
func (f *Filter) Comparisons() int {
	if f == nil {
		return 0
	}
	return f.cmps
}

// parser is a recursive-descent parser over the tokens of one filter. Precedence, lowest
// first: or, and, not, comparison.
type parser struct {
	src   string
	toks  []token
	i     int
	depth int
	cmps  int
}

func (p *parser) peek() token { return p.toks[p.i] }

func (p *parser) take() token {
	t := p.toks[p.i]
	if t.kind != tokEOF {
		p.i++
	}
	return t
}

// isWord reports whether t is the keyword w.
func isWord(t token, w string) bool { return t.kind == tokIdent && t.text == w }

func (p *parser) unexpected(t token, want string) error {
	if t.kind == tokEOF {
		return errAt(p.src, t.pos, ErrFilterSyntax, "expected %s, found the end of the filter", want)
	}
	found := t.text
	if t.kind == tokString || t.kind == tokTyped {
		found = "a literal"
	}
	return errAt(p.src, t.pos, ErrFilterSyntax, "expected %s, found %q", want, found)
}

func (p *parser) or() (node, error) { return p.chain("or", p.and) }

func (p *parser) and() (node, error) { return p.chain("and", p.unary) }

// chain parses operands joined by the keyword word, left-associative.
func (p *parser) chain(word string, operand func() (node, error)) (node, error) {
	l, err := operand()
	if err != nil {
		return nil, err
	}
	for isWord(p.peek(), word) {
		p.take()
		r, err := operand()
		if err != nil {
			return nil, err
		}
		l = &logicNode{and: word == "and", l: l, r: r}
	}
	return l, nil
}

// unary parses "not unary" or a primary.
func (p *parser) unary() (node, error) {
	t := p.peek()
	if !isWord(t, "not") {
		return p.primary()
	}
	if err := p.enter(t); err != nil {
		return nil, err
	}
	defer p.leave()
	p.take()
	x, err := p.unary()
	if err != nil {
		return nil, err
	}
	return &notNode{x: x}, nil
}

// primary parses "( or )" or a comparison.
func (p *parser) primary() (node, error) {
	t := p.peek()
	if t.kind != tokLParen {
		return p.comparison()
	}
	if err := p.enter(t); err != nil {
		return nil, err
	}
	defer p.leave()
	p.take()
	x, err := p.or()
	if err != nil {
		return nil, err
	}
	if c := p.take(); c.kind != tokRParen {
		return nil, p.unexpected(c, "')'")
	}
	return x, nil
}

func (p *parser) enter(t token) error {
	p.depth++
	if p.depth > maxDepth {
		return errAt(p.src, t.pos, ErrFilterSyntax, "filter is nested more than %d levels deep", maxDepth)
	}
	return nil
}

func (p *parser) leave() { p.depth-- }

// comparison parses "operand op operand" where one operand is a property and the other a
// constant, a bare property, which stands for "property eq true", or a bare boolean
// literal, which holds always (true) or never (false).
func (p *parser) comparison() (node, error) {
	first := p.peek()
	p.cmps++
	if p.cmps > MaxComparisons {
		return nil, errAt(p.src, first.pos, ErrTooManyComparisons, "comparison %d is one more than the %d allowed", p.cmps, MaxComparisons)
	}
	a, err := p.operand()
	if err != nil {
		return nil, err
	}
	if !a.isLit && endsOperand(p.peek()) { // a bare property: "Active" means "Active eq true"
		return newCmpNode(a.prop, OpEq, model.BoolValue(true)), nil
	}
	if a.isLit && a.value.Type() == model.TypeBoolean && endsOperand(p.peek()) { // "true", "false"
		return constNode(a.value.Bool()), nil
	}
	ot := p.take()
	op, ok := parseOp(ot.text)
	if ot.kind != tokIdent || !ok {
		return nil, p.unexpected(ot, "a comparison operator (eq, ne, gt, ge, lt, le)")
	}
	second := p.peek()
	b, err := p.operand()
	if err != nil {
		return nil, err
	}
	return p.build(a, op, b, first, ot, second)
}

// endsOperand reports whether t can follow a complete boolean operand.
func endsOperand(t token) bool {
	return t.kind == tokEOF || t.kind == tokRParen || isWord(t, "and") || isWord(t, "or")
}

// operand is a property name or a constant.
type operand struct {
	prop  string
	value model.Value
	isLit bool
}

// keyword reports whether an identifier is an operator word, which cannot name a property.
// A switch, not a package-level map, which would be built at every start of the program.
func keyword(s string) bool {
	switch s {
	case "and", "or", "not", "eq", "ne", "gt", "ge", "lt", "le":
		return true
	}
	return false
}

func (p *parser) operand() (operand, error) {
	t := p.take()
	switch {
	case t.kind == tokIdent && keyword(t.text), t.kind == tokLParen, t.kind == tokRParen, t.kind == tokEOF:
		return operand{}, p.unexpected(t, "a property name or a literal")
	case t.kind == tokIdent && t.text != "true" && t.text != "false":
		return operand{prop: t.text}, nil
	}
	v, err := literal(p.src, t)
	return operand{value: v, isLit: true}, err
}

// build checks the operands of a comparison and puts the constant on the right.
func (p *parser) build(a operand, op Op, b operand, first, opTok, second token) (node, error) {
	switch {
	case !a.isLit && !b.isLit:
		return nil, errAt(p.src, second.pos, ErrFilterSyntax, "a property can only be compared with a constant")
	case a.isLit && b.isLit:
		return nil, errAt(p.src, first.pos, ErrFilterSyntax, "a comparison needs a property")
	}
	lit := b.value
	if a.isLit {
		lit = a.value
	}
	if lit.Type() == model.TypeBoolean && op != OpEq && op != OpNe {
		return nil, errAt(p.src, opTok.pos, ErrFilterSyntax, "operator %s is not defined for Edm.Boolean", op)
	}
	if a.isLit {
		return newCmpNode(b.prop, op.flip(), lit), nil
	}
	return newCmpNode(a.prop, op, lit), nil
}
