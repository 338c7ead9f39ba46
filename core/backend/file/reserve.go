package file

import (
	"errors"
	"fmt"
	"os"
	"syscall"

	"github.com/tabletopdb/tabletop/core"
)

// reserveAhead is how much disk space the log takes ahead of what it needs, so that a
// reservation is made once per that many bytes written rather than per write.
const reserveAhead = 1 << 20

// reservation is the disk space allocated to the log past its end, where the file
// system allows it (Linux's fallocate, keeping the file's size): a write into it cannot
// fail for lack of space, so a full disk is met when a change set is reserved, before
// the store applies it, and not when it is written after being applied.
type reservation struct {
	f           *os.File
	upTo        int64 // the log is allocated up to this offset
	unsupported bool  // the file system cannot allocate ahead: writes are not reserved
}

func newReservation(f *os.File) reservation { return reservation{f: f} }

// ensure allocates the log up to at least upTo. When the disk has less than
// reserveAhead left, it allocates just what upTo needs, unless ahead is set: a backend
// that found the disk full asks for the whole margin before writing again, so that
// writes do not flap between failing and working while the disk stays nearly full.
func (r *reservation) ensure(upTo int64, ahead bool) error {
	if r.unsupported || upTo <= r.upTo {
		return nil
	}
	end := upTo + reserveAhead
	err := allocate(r.f, r.upTo, end-r.upTo)
	if errors.Is(err, syscall.ENOSPC) && !ahead { // what is left may still hold this write
		end = upTo
		err = allocate(r.f, r.upTo, end-r.upTo)
	}
	switch {
	case err == nil:
		r.upTo = end
	case errors.Is(err, errAllocateUnsupported):
		r.unsupported = true
	default:
		return fmt.Errorf("reserve room in the log: %w", noSpace(err))
	}
	return nil
}

// reset says that the log was cut to size, freeing what was allocated past it.
func (r *reservation) reset(size int64) { r.upTo = size }

// errAllocateUnsupported means the file system cannot allocate a file's space ahead.
var errAllocateUnsupported = errors.New("allocating ahead is not supported")

// noSpace marks a failure for lack of disk space as core.ErrNoSpace.
func noSpace(err error) error {
	if errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT) {
		return fmt.Errorf("%w: %w", core.ErrNoSpace, err)
	}
	return err
}
