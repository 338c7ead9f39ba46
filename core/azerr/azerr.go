package azerr

import (
	"errors"
	"strings"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/model"
)

// Coded is an error that names its own code: the protocol layer's sentinels (New), and
// errors that choose their code when they happen, such as an authentication failure or a
// rejection of the browser's storage.
type Coded interface {
	error
	AzureCode() Code
}

// Error is a sentinel error that carries the code it is answered with.
type Error struct {
	text string
	code Code
}

// New returns a sentinel error with text, answered with code.
func New(code Code, text string) *Error { return &Error{text: text, code: code} }

// Error implements error.
func (e *Error) Error() string { return e.text }

// AzureCode implements Coded.
func (e *Error) AzureCode() Code { return e.code }

// Answer is what a host reports for an error: Azure's code, the HTTP status the service
// answers with, Azure's message for it, and which operation of an entity group
// transaction failed.
type Answer struct {
	Status  int
	Code    string
	Message string // the code's message, with the field and value of a *model.FieldError filled in
	Index   int    // the failing operation of a transaction (from a *core.OpError), or -1
}

// Of chooses the answer for err: the code a Coded error in its chain names, else the
// code of the engine's sentinel error it wraps (engine.go), else InternalError.
func Of(err error) Answer {
	c := fill(codeOf(err), err)
	a := Answer{Status: c.Status, Code: c.Name, Message: c.Message, Index: -1}
	var oe *core.OpError
	if errors.As(err, &oe) {
		a.Index = oe.Index
	}
	return a
}

// codeOf is the code of err, before its message is filled.
func codeOf(err error) Code {
	var coded Coded
	if errors.As(err, &coded) {
		return coded.AzureCode()
	}
	for _, e := range engineCodes {
		if errors.Is(err, *e.err) {
			return *e.code
		}
	}
	return InternalError
}

// Fill puts field and value into the {field} and {value} of c's message.
func (c Code) Fill(field, value string) Code {
	if strings.Contains(c.Message, "{") {
		c.Message = fillIn(c.Message, field, value)
	}
	return c
}

// fillIn replaces each {field} and {value} of msg in one pass, so a filled-in text is
// never filled again (a strings.Replacer does the same but makes the wasm builds larger).
func fillIn(msg, field, value string) string {
	var b strings.Builder
	for {
		i := strings.IndexByte(msg, '{')
		if i < 0 {
			break
		}
		b.WriteString(msg[:i])
		switch rest := msg[i:]; {
		case strings.HasPrefix(rest, "{field}"):
			b.WriteString(field)
			msg = rest[len("{field}"):]
		case strings.HasPrefix(rest, "{value}"):
			b.WriteString(value)
			msg = rest[len("{value}"):]
		default:
			b.WriteByte('{')
			msg = rest[1:]
		}
	}
	b.WriteString(msg)
	return b.String()
}

// fill fills c's message from the *model.FieldError in err, if any; an OutOfRangeInput
// that names no field gets Azure's generic message.
func fill(c Code, err error) Code {
	if !strings.Contains(c.Message, "{") {
		return c
	}
	var fe *model.FieldError
	if !errors.As(err, &fe) {
		fe = &model.FieldError{}
	}
	if c.Name == OutOfRangeInput.Name && fe.Field == "" {
		return OutOfRangeInputUnnamed
	}
	return c.Fill(fe.Field, fe.Value)
}
