package file

import (
	"errors"
	"fmt"
)

// ErrDamaged means a data file holds damage that a crash cannot explain: a bad record in
// the log with data that had reached the disk after it, or a snapshot that fails its
// checksums. The backend refuses to open and leaves the file as it is; Salvage recovers
// every readable record. Errors that wrap it are *DamageError.
var ErrDamaged = errors.New("data file is damaged")

// DamageError says where a data file is damaged and what follows the damage.
type DamageError struct {
	Path    string // the damaged file
	Offset  int64  // where the damage starts
	Problem string // what is wrong there
	Size    int64  // the file's size
	// Intact is the offset of the first intact data found after the damage (for the log,
	// a sync mark: proof that the damaged bytes had been on disk), or -1 if none was found.
	Intact int64
}

func (e *DamageError) Error() string {
	msg := fmt.Sprintf("%s is damaged at byte %d of %d: %s", e.Path, e.Offset, e.Size, e.Problem)
	if e.Intact >= 0 {
		msg += fmt.Sprintf("; intact data that had reached the disk after it follows from byte %d, so this is not a torn write", e.Intact)
	}
	return msg + "; the file is left unchanged (see Salvage)"
}

// Unwrap makes a DamageError match ErrDamaged.
func (e *DamageError) Unwrap() error { return ErrDamaged }
