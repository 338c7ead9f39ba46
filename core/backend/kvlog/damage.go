package kvlog

import "errors"

// ErrDamaged means the stored records are not what a sequence of atomic commits leaves:
// the store refuses to open and nothing is written. Errors that wrap it are *DamageError.
var ErrDamaged = errors.New("stored data is damaged")

// DamageError names the damaged key and what is wrong with it.
type DamageError struct {
	Key     string
	Problem string
	Err     error // the cause, if any
}

func (e *DamageError) Error() string {
	msg := "stored data is damaged at " + e.Key + ": " + e.Problem
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	return msg + "; nothing was changed"
}

// Unwrap makes a DamageError match ErrDamaged and its cause.
func (e *DamageError) Unwrap() []error { return []error{ErrDamaged, e.Err} }
