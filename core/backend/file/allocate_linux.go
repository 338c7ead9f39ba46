package file

import (
	"errors"
	"os"
	"syscall"
)

// fallocKeepSize is FALLOC_FL_KEEP_SIZE: allocate without changing the file's size.
const fallocKeepSize = 1

// allocate allocates n bytes of f's space from off, keeping its size.
func allocate(f *os.File, off, n int64) error {
	err := syscall.Fallocate(int(f.Fd()), fallocKeepSize, off, n)
	if errors.Is(err, syscall.EOPNOTSUPP) || errors.Is(err, syscall.ENOSYS) {
		return errAllocateUnsupported
	}
	return err
}
