//go:build !js

package native

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"strings"
	"syscall"
)

// Version is Tabletop's version, as `tabletop version` prints it; web/package.json and
// CHANGELOG.md carry the same (TestVersion_agrees).
const Version = "0.1.0"

// usage is the command's help, before the server's flags.
const usage = `Tabletop: Azure Table storage that runs anywhere.

Usage:
  tabletop [serve] [flags]     serve the Azure Table service API (the default)
  tabletop copy SRC DST        copy tables between endpoints, dump files and Azurite's database file
  tabletop export SRC [FILE]   write tables to a dump file (standard output without FILE)
  tabletop import FILE DST     read a dump file (or a browser export) into DST
  tabletop salvage DIR         recover an account's directory the server refuses as damaged
  tabletop version             print the version (also: tabletop -version)
  tabletop help                print this help

Every flag may also be given as an environment variable TABLETOP_<FLAG> (upper case,
"-" as "_"; TABLETOP_DATA=/srv/tt); a flag on the command line wins. Run
"tabletop copy -h" for the data-moving flags.

Flags of serve:
`

// Main runs the tabletop command with os.Args and exits with its code: 0 done, 1 failed,
// 2 a usage error (an unknown word or flag).
func Main() {
	os.Exit(command(os.Args[1:], os.Stdout, os.Stderr))
}

// command runs the command line args and returns the exit code.
func command(args []string, stdout, stderr io.Writer) int {
	word := ""
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		word = args[0]
	}
	switch word {
	case "", "serve":
		if word == "serve" {
			args = args[1:]
		}
		return serveMain(args, stdout, stderr)
	case "copy", "export", "import":
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer stop()
		return runTransfer(ctx, args, stdout, stderr)
	case "salvage":
		return runSalvage(args, stdout, stderr)
	case "version":
		printVersion(stdout)
		return 0
	case "help":
		fs, _ := serveFlags(stdout)
		fs.Usage()
		return 0
	}
	fmt.Fprintf(stderr, "tabletop: unknown command %q\n\n", word)
	fs, _ := serveFlags(stderr)
	fs.Usage()
	return 2
}

// printVersion prints `tabletop version`'s line.
func printVersion(w io.Writer) {
	fmt.Fprintf(w, "tabletop %s (%s %s/%s)\n", Version, runtime.Version(), runtime.GOOS, runtime.GOARCH)
}

// parseFlags sets fs's flags from their TABLETOP_<FLAG> environment variables, then from
// args. It reports whether to go on, and if not the exit code: 0 for -h, 2 for a flag or
// a variable that does not parse.
func parseFlags(fs *flag.FlagSet, args []string, stderr io.Writer) (int, bool) {
	var bad error
	fs.VisitAll(func(f *flag.Flag) {
		name := envName(f.Name)
		if v, ok := os.LookupEnv(name); ok && bad == nil {
			if err := f.Value.Set(v); err != nil {
				bad = fmt.Errorf("%s=%q: %w", name, v, err)
			}
		}
	})
	if bad != nil {
		fmt.Fprintln(stderr, "tabletop:", bad)
		return 2, false
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0, false
		}
		return 2, false
	}
	return 0, true
}

// envName is the environment variable of a flag: TABLETOP_ and its name in upper case,
// "-" as "_".
func envName(flagName string) string {
	return "TABLETOP_" + strings.ToUpper(strings.ReplaceAll(flagName, "-", "_"))
}
