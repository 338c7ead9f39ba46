package query

import (
	"errors"
	"strconv"
)

// Errors of query parameters. The HTTP layer answers all of them with 400: InvalidInput,
// or InvalidQueryParameterValue for ErrTopInvalid.
var (
	// ErrFilterSyntax means a $filter is malformed: an unexpected character or token, an
	// unterminated literal, a comparison without a property or without a constant.
	ErrFilterSyntax = errors.New("filter is malformed")
	// ErrLiteralOutOfRange means a literal of a $filter does not fit its type, such as
	// 3000000000 (an Int32) or datetime'1500-01-01T00:00:00Z'.
	ErrLiteralOutOfRange = errors.New("filter literal is out of range")
	// ErrTooManyComparisons means a $filter holds more than MaxComparisons comparisons.
	ErrTooManyComparisons = errors.New("filter has more than 15 comparisons")
	// ErrTokenInvalid means a continuation token was not issued by this package, was
	// altered, or came without its partner (NextPartitionKey without NextRowKey).
	ErrTokenInvalid = errors.New("continuation token is invalid")
	// ErrTopInvalid means $top is not an integer from 1 to MaxTop.
	ErrTopInvalid = errors.New("$top must be an integer from 1 to 1000")
	// ErrSelectInvalid means a $select names something that is not a property name.
	ErrSelectInvalid = errors.New("select is malformed")
)

// SyntaxError says what is wrong with a $filter or $select and where. Pos is the 0-based
// offset, in characters (Unicode code points), of the token at fault, as Azure reports it.
type SyntaxError struct {
	Pos int    // 0-based character offset in the parsed text
	Msg string // what is wrong, such as "expected ')'"
	Err error  // the sentinel: ErrFilterSyntax, ErrLiteralOutOfRange, ...
}

// Error implements error: "filter is malformed: expected ')' at position 12".
func (e *SyntaxError) Error() string {
	return e.Err.Error() + ": " + e.Msg + " at position " + strconv.Itoa(e.Pos)
}

// Unwrap returns the sentinel, so errors.Is sees through a SyntaxError.
func (e *SyntaxError) Unwrap() error { return e.Err }
