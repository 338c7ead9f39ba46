package query

import (
	"encoding/hex"
	"strconv"
	"strings"

	"github.com/tabletopdb/tabletop/core/model"
)

// Op is a comparison operator of $filter.
type Op uint8

// The comparison operators.
const (
	OpEq Op = iota
	OpNe
	OpGt
	OpGe
	OpLt
	OpLe
)

var opNames = [...]string{OpEq: "eq", OpNe: "ne", OpGt: "gt", OpGe: "ge", OpLt: "lt", OpLe: "le"}

// String returns the operator as written in a filter, such as "ge".
func (o Op) String() string { return opNames[o] }

// parseOp returns the operator named s.
func parseOp(s string) (Op, bool) {
	for o, n := range opNames {
		if n == s {
			return Op(o), true
		}
	}
	return 0, false
}

// flip returns the operator that holds when the operands are swapped: a lt b ⇔ b gt a.
func (o Op) flip() Op {
	switch o {
	case OpGt:
		return OpLt
	case OpGe:
		return OpLe
	case OpLt:
		return OpGt
	case OpLe:
		return OpGe
	}
	return o
}

// negate returns the operator that holds exactly when o does not, on a total order.
func (o Op) negate() Op {
	return [...]Op{OpEq: OpNe, OpNe: OpEq, OpGt: OpLe, OpGe: OpLt, OpLt: OpGe, OpLe: OpGt}[o]
}

// node is a node of a parsed filter.
type node interface {
	eval(r record) bool
	write(b *strings.Builder)
}

// logicNode is "l and r" or "l or r".
type logicNode struct {
	and  bool
	l, r node
}

// notNode is "not x".
type notNode struct{ x node }

// cmpNode is "prop op lit"; a constant written on the left is stored flipped.
type cmpNode struct {
	prop string
	op   Op
	lit  model.Value
	// Prepared by newCmpNode for eval:
	want      outcome // op's outcome for each result of comparing with lit
	integer   int64   // lit, when isInteger
	isInteger bool    // lit is an Int32 or Int64
	custom    bool    // prop is not a system property
}

// constNode is a bare "true" or "false": it holds for every record, or for none.
type constNode bool

func (n constNode) write(b *strings.Builder) {
	if n {
		b.WriteString("true")
		return
	}
	b.WriteString("false")
}

func (n *logicNode) write(b *strings.Builder) {
	b.WriteByte('(')
	n.l.write(b)
	if n.and {
		b.WriteString(" and ")
	} else {
		b.WriteString(" or ")
	}
	n.r.write(b)
	b.WriteByte(')')
}

func (n *notNode) write(b *strings.Builder) {
	b.WriteString("not ")
	n.x.write(b)
}

func (n *cmpNode) write(b *strings.Builder) {
	b.WriteString(n.prop)
	b.WriteByte(' ')
	b.WriteString(n.op.String())
	b.WriteByte(' ')
	b.WriteString(formatLiteral(n.lit))
}

// formatLiteral writes v as a filter literal that parses back to v.
func formatLiteral(v model.Value) string {
	switch v.Type() {
	case model.TypeString:
		return "'" + strings.ReplaceAll(v.Str(), "'", "''") + "'"
	case model.TypeBinary:
		return "X'" + hex.EncodeToString(v.Bytes()) + "'"
	case model.TypeDateTime:
		return "datetime'" + v.DateTime().String() + "'"
	case model.TypeGuid:
		return "guid'" + v.Guid().String() + "'"
	case model.TypeInt64:
		return strconv.FormatInt(v.Int64(), 10) + "L"
	case model.TypeDouble:
		s := strconv.FormatFloat(v.Double(), 'g', -1, 64)
		if !strings.ContainsAny(s, ".e") {
			s += ".0"
		}
		return s
	}
	return v.Text() // Boolean, Int32
}
