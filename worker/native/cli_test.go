//go:build !js

package native

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestCommand: `go install` of worker/tabletop gives a command named tabletop, whose
// version, help, unknown words, bad flags and environment variables behave as its help
// says.
func TestCommand(t *testing.T) {
	if testing.Short() {
		t.Skip("installs the command")
	}
	gobin := t.TempDir()
	install := exec.Command("go", "install", "../tabletop")
	install.Env = append(os.Environ(), "GOBIN="+gobin)
	if out, err := install.CombinedOutput(); err != nil {
		t.Fatalf("go install: %v\n%s", err, out)
	}
	bin := filepath.Join(gobin, "tabletop")
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	run := func(env []string, args ...string) (string, string, int) {
		cmd := exec.Command(bin, args...)
		cmd.Env = append(os.Environ(), env...)
		var out, errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errOut
		err := cmd.Run()
		code := 0
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			code = exit.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return out.String(), errOut.String(), code
	}
	t.Run("Version", func(t *testing.T) {
		for _, args := range [][]string{{"version"}, {"-version"}} {
			out, _, code := run(nil, args...)
			if code != 0 || !strings.HasPrefix(out, "tabletop "+Version+" ") {
				t.Fatalf("%v: exit %d: %q", args, code, out)
			}
		}
	})
	t.Run("Help", func(t *testing.T) {
		for _, args := range [][]string{{"help"}, {"-h"}} {
			out, errOut, code := run(nil, args...)
			all := out + errOut
			if code != 0 || !strings.Contains(all, "tabletop copy SRC DST") || !strings.Contains(all, "-addr") || !strings.Contains(all, "-version") || !strings.Contains(all, "TABLETOP_") {
				t.Fatalf("%v: exit %d:\n%s", args, code, all)
			}
		}
	})
	t.Run("HelpOfCopy", func(t *testing.T) {
		if _, errOut, code := run(nil, "copy", "-h"); code != 0 || !strings.Contains(errOut, "-checkpoint") {
			t.Fatalf("exit %d: %q", code, errOut)
		}
	})
	t.Run("ErrUnknownWord", func(t *testing.T) {
		_, errOut, code := run(nil, "cpy", "a", "b")
		if code != 2 || !strings.Contains(errOut, `unknown command "cpy"`) || !strings.Contains(errOut, "Usage:") {
			t.Fatalf("exit %d: %q", code, errOut)
		}
		if _, err := os.Stat("data"); err == nil {
			t.Fatal("an unknown word created ./data")
		}
	})
	t.Run("ErrBadFlag", func(t *testing.T) {
		for _, args := range [][]string{{"-nosuch"}, {"serve", "-retention", "soon"}, {"copy", "-nosuch", "a", "b"}} {
			if _, errOut, code := run(nil, args...); code != 2 || errOut == "" {
				t.Fatalf("%v: exit %d: %q", args, code, errOut)
			}
		}
	})
	t.Run("Environment", func(t *testing.T) {
		// TABLETOP_ADDR names an address no host has: the server fails naming it, which
		// shows it read the variable; -addr on the command line wins over it.
		env := []string{"TABLETOP_ADDR=256.0.0.1:0", "TABLETOP_DATA=:memory:", "TABLETOP_WEB=none"}
		if _, errOut, code := run(env); code != 1 || !strings.Contains(errOut, "256.0.0.1") {
			t.Fatalf("exit %d: %q", code, errOut)
		}
		if _, errOut, code := run(env, "-addr", "256.0.0.2:0"); code != 1 || !strings.Contains(errOut, "256.0.0.2") {
			t.Fatalf("the flag does not win: exit %d: %q", code, errOut)
		}
		if _, errOut, code := run([]string{"TABLETOP_RETENTION=soon"}); code != 2 || !strings.Contains(errOut, "TABLETOP_RETENTION") {
			t.Fatalf("a bad variable: exit %d: %q", code, errOut)
		}
	})
}
