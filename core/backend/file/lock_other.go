//go:build !unix

package file

import (
	"io"
	"os"
	"path/filepath"
	"sync"
)

// held lists the lock files this process holds, on platforms without flock (js/wasm under
// Node, Windows): a second Open of a directory in the same process is refused, but a
// second process is not detected there.
var held sync.Map

// lockDir claims path for this process.
func lockDir(path string) (io.Closer, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	if _, loaded := held.LoadOrStore(abs, true); loaded {
		return nil, ErrLocked
	}
	f, err := os.OpenFile(abs, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		held.Delete(abs)
		return nil, err
	}
	return &heldLock{f: f, path: abs}, nil
}

type heldLock struct {
	f    *os.File
	path string
}

func (l *heldLock) Close() error {
	held.Delete(l.path)
	return l.f.Close()
}

// syncDir is a no-op where directories cannot be fsynced.
func syncDir(string) error { return nil }
