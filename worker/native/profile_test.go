//go:build !js

package native

import (
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
)

// TestStartProfiles checks that each profile the environment names is written when the
// profiles stop, and that none is written when none is named.
func TestStartProfiles(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		dir := t.TempDir()
		env := map[string]string{
			memProfileEnv:   filepath.Join(dir, "allocs.pprof"),
			mutexProfileEnv: filepath.Join(dir, "mutex.pprof"),
			blockProfileEnv: filepath.Join(dir, "block.pprof"),
		}
		defer runtime.SetMutexProfileFraction(0)
		defer runtime.SetBlockProfileRate(0)
		stop, err := startProfiles(func(k string) string { return env[k] })
		if err != nil {
			t.Fatal(err)
		}
		var mu sync.Mutex // a contended lock, so the profiles have something to say
		var wg sync.WaitGroup
		for range 4 {
			wg.Go(func() {
				for range 1000 {
					mu.Lock()
					mu.Unlock()
				}
			})
		}
		wg.Wait()
		if err := stop(); err != nil {
			t.Fatal(err)
		}
		for k, path := range env {
			if fi, err := os.Stat(path); err != nil || fi.Size() == 0 {
				t.Errorf("%s: the profile at %s is missing or empty (%v)", k, path, err)
			}
		}
	})
	t.Run("None", func(t *testing.T) {
		stop, err := startProfiles(func(string) string { return "" })
		if err != nil {
			t.Fatal(err)
		}
		if err := stop(); err != nil {
			t.Fatal(err)
		}
		if got := runtime.SetMutexProfileFraction(-1); got != 0 {
			t.Errorf("mutex profile fraction %d with no profile asked for, want 0", got)
		}
	})
	t.Run("ErrCreate", func(t *testing.T) {
		missing := filepath.Join(t.TempDir(), "no", "such", "dir", "mutex.pprof")
		defer runtime.SetMutexProfileFraction(0)
		stop, err := startProfiles(func(k string) string {
			if k == mutexProfileEnv {
				return missing
			}
			return ""
		})
		if err != nil {
			t.Fatal(err)
		}
		if err := stop(); err == nil {
			t.Error("stop wrote a profile into a directory that does not exist")
		}
	})
}
