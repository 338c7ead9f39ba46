package backendtest

import (
	"os/exec"
	"runtime"
	"testing"
)

// MountSmall mounts a tmpfs of size (such as "4m") at a new directory for the test, and
// unmounts it when the test ends: a real file system that fills up. Where the test may
// not mount one (not Linux, not root) it skips the test, saying why.
func MountSmall(t *testing.T, size string) string {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("mounting a small file system needs Linux")
	}
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size="+size, "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs here (%v: %s)", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", dir).Run() })
	return dir
}
