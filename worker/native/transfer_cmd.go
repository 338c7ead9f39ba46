//go:build !js

package native

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/tabletopdb/tabletop/worker/native/transfer"
)

// transferUsage is the help of the data-moving subcommands.
const transferUsage = `usage:
  tabletop copy   [flags] SRC DST
  tabletop export [flags] SRC [FILE]   (FILE defaults to standard output)
  tabletop import [flags] FILE DST

An end is a connection string or a table service URL with a SAS (Azure, Azurite,
Tabletop native or edge), a dump file (the browser module's export format too; .gz is
gzip-compressed; - is standard input or output), or an Azurite table database file
(__azurite_db_table__.json, or any name prefixed with azurite:), read only.

flags:
`

// isTransfer reports whether args name a data-moving subcommand.
func isTransfer(args []string) bool {
	return len(args) > 0 && (args[0] == "copy" || args[0] == "export" || args[0] == "import")
}

// transferFlags are the flags of copy, export and import.
type transferFlags struct {
	tables, filter, checkpoint, failures string
	keepGoing, quiet                     bool
	parallel                             int
}

// runTransfer runs `tabletop copy|export|import args...` and returns the exit code.
func runTransfer(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("tabletop "+args[0], flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, transferUsage); fs.PrintDefaults() }
	var f transferFlags
	fs.StringVar(&f.tables, "tables", "", "comma-separated tables to copy (default: all)")
	fs.StringVar(&f.filter, "filter", "", "an OData $filter: copy only the entities that match")
	fs.StringVar(&f.checkpoint, "checkpoint", "", "checkpoint file: resume from it if present, update it as the copy goes, remove it at the end")
	fs.BoolVar(&f.keepGoing, "keep-going", false, "on an entity that cannot be written, record it in -failures and go on")
	fs.StringVar(&f.failures, "failures", "tabletop-failures.jsonl", "with -keep-going, the file of entities not written (JSON lines)")
	fs.BoolVar(&f.quiet, "quiet", false, "no progress output")
	fs.IntVar(&f.parallel, "parallel", 16, "batches written at once to an endpoint")
	if code, ok := parseFlags(fs, reorderFlags(args[1:]), stderr); !ok {
		return code
	}
	src, dst, ok := ends(args[0], fs.Args())
	if !ok {
		fs.Usage()
		return 2
	}
	if err := transferRun(ctx, src, dst, f, stderr); err != nil {
		fmt.Fprintln(stderr, "tabletop "+args[0]+":", err)
		return 1
	}
	return 0
}

// reorderFlags puts flags before the positional ends, so flags may follow them.
func reorderFlags(args []string) []string {
	var flags, pos []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			pos = append(pos, args[i+1:]...)
			i = len(args)
		case strings.HasPrefix(a, "-") && a != "-":
			flags = append(flags, a)
			if !strings.Contains(a, "=") && i+1 < len(args) && !isBoolFlag(a) {
				flags = append(flags, args[i+1])
				i++
			}
		default:
			pos = append(pos, a)
		}
	}
	return append(flags, pos...)
}

func isBoolFlag(a string) bool {
	name := strings.TrimLeft(a, "-")
	return name == "keep-going" || name == "quiet"
}

// ends returns the source and destination of a subcommand's positional arguments.
func ends(cmd string, pos []string) (src, dst string, ok bool) {
	switch {
	case cmd == "export" && len(pos) == 1:
		return pos[0], "-", true
	case len(pos) == 2:
		return pos[0], pos[1], true
	}
	return "", "", false
}

// transferRun opens the ends, resumes the checkpoint if any, and copies.
func transferRun(ctx context.Context, src, dst string, f transferFlags, stderr io.Writer) (err error) {
	job := transfer.Job{Select: transfer.Selection{Filter: f.filter}}
	if f.tables != "" {
		job.Select.Tables = strings.Split(f.tables, ",")
	}
	if err := job.Select.Compile(); err != nil {
		return err
	}
	job.Checkpoint = &transfer.Checkpoint{}
	if f.checkpoint != "" && strings.HasSuffix(dst, ".gz") {
		return transfer.ErrResumeGzip
	}
	if f.checkpoint != "" && dst == "-" {
		return errors.New("a copy to standard output cannot be resumed: drop -checkpoint, or name a file")
	}
	if f.checkpoint != "" {
		if job.Checkpoint, err = transfer.LoadCheckpoint(f.checkpoint, src, dst); err != nil {
			return err
		}
	}
	if job.Source, err = transfer.OpenSource(src); err != nil {
		return err
	}
	defer job.Source.Close()
	out := dst
	if partial := partialFile(dst, f.checkpoint); partial != "" {
		out = partial // renamed to dst once the copy is whole, removed if it fails
		defer func() { err = finishPartial(err, partial, dst) }()
	}
	if job.Sink, err = transfer.OpenSink(out, f.parallel, job.Checkpoint.Offset); err != nil {
		return err
	}
	defer func() { err = errors.Join(err, job.Sink.Close()) }()
	if f.keepGoing {
		if job.Failures, err = transfer.CreateFailures(f.failures, job.Checkpoint.Resuming()); err != nil {
			return err
		}
		defer func() { err = errors.Join(err, job.Failures.Close()) }()
	}
	if !f.quiet {
		job.Progress = transfer.NewProgress(stderr, isTerminal(stderr))
	}
	job.Progress.Start(job.Source)
	err = job.Run(ctx)
	failed := 0
	if job.Failures != nil {
		failed = job.Failures.Count()
	}
	job.Progress.Finish(failed, err)
	if err == nil && failed > 0 {
		err = fmt.Errorf("%d entities not written; see %s", failed, f.failures)
	}
	return err
}

// isTerminal reports whether w is a character device, such as a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// partialFile is where a copy to the dump file dst is written until it is whole: beside
// dst, so that a failed copy leaves no half-written dst. "" writes to dst itself: standard
// output, an endpoint, and a copy with a checkpoint, which resumes into the file it left.
func partialFile(dst, checkpoint string) string {
	if checkpoint != "" || !transfer.IsDumpFile(dst) {
		return ""
	}
	return dst + ".partial"
}

// finishPartial renames the partial file to dst after a copy that succeeded (err nil),
// and removes it after one that failed; it returns the copy's error, or the rename's.
func finishPartial(err error, partial, dst string) error {
	if err != nil {
		os.Remove(partial)
		return err
	}
	return os.Rename(partial, dst)
}
