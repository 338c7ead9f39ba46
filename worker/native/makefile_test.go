//go:build !js

package native

import (
	"os/exec"
	"strings"
	"testing"
)

// TestMakefile_Run checks that make run passes ADDR and DATA to the server, as the README
// says (make run ADDR=… DATA=…).
func TestMakefile_Run(t *testing.T) {
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("no make")
	}
	out, err := exec.Command("make", "-n", "-C", "../..", "run", "ADDR=127.0.0.1:12345", "DATA=/tmp/tt data").CombinedOutput()
	if err != nil {
		t.Fatalf("make -n run: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), `./worker/tabletop -addr "127.0.0.1:12345" -data "/tmp/tt data"`) {
		t.Fatalf("make run does not pass ADDR and DATA:\n%s", out)
	}
}
