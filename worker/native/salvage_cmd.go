//go:build !js

package native

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/tabletopdb/tabletop/core/backend/file"
)

// salvageUsage is the help of the salvage subcommand.
const salvageUsage = `usage:
  tabletop salvage DIR

Recovers an account's data directory (DIR, such as data/devstoreaccount1) that the
server refuses to open because a file in it is damaged: every intact record of the
snapshot and the log is kept, each damaged file is kept aside as NAME.damaged-TIME and
replaced by what could be read. Stop the server first. What was lost is printed.
`

// isSalvage reports whether args name the salvage subcommand.
func isSalvage(args []string) bool { return len(args) > 0 && args[0] == "salvage" }

// runSalvage runs `tabletop salvage DIR` and returns the exit code.
func runSalvage(args []string, stdout, stderr io.Writer) int {
	if len(args) != 2 || args[1] == "-h" || args[1] == "-help" || args[1] == "--help" {
		fmt.Fprint(stderr, salvageUsage)
		return 2
	}
	dir := args[1]
	if !holdsStore(dir) {
		fmt.Fprintf(stderr, "tabletop salvage: %s holds no log or snapshot: name an account's directory, such as data/devstoreaccount1\n", dir)
		return 2
	}
	report, err := file.Salvage(dir)
	if err != nil {
		fmt.Fprintln(stderr, "tabletop salvage:", err)
		return 1
	}
	printSalvaged(stdout, report.Snapshot, "commands")
	printSalvaged(stdout, report.Log, "change sets")
	return 0
}

// holdsStore reports whether dir holds a store's data files.
func holdsStore(dir string) bool {
	for _, name := range []string{"log", "snapshot"} {
		if _, err := os.Stat(filepath.Join(dir, name)); !errors.Is(err, os.ErrNotExist) {
			return true
		}
	}
	return false
}

// printSalvaged prints what salvage did with one file.
func printSalvaged(w io.Writer, f file.SalvagedFile, records string) {
	if f.MovedTo == "" {
		fmt.Fprintf(w, "%s: intact, left as it was\n", f.Path)
		return
	}
	var lost int64
	for _, r := range f.Lost {
		lost += r.Length
	}
	fmt.Fprintf(w, "%s: kept %d %s; %d damaged stretches (%d bytes) lost:", f.Path, f.Kept, records, len(f.Lost), lost)
	for _, r := range f.Lost {
		fmt.Fprintf(w, " [%d, +%d)", r.Offset, r.Length)
	}
	fmt.Fprintf(w, "\n  the damaged file is kept as %s\n", f.MovedTo)
}
