package main

import (
	"flag"
	"fmt"
	"os"
)

func main() {
	lift := flag.Bool("column", false, "also take Go's findfunctab out of the data segments (see Lift): the module gains a start function")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: packdata [-column] module.wasm   (rewritten in place)")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 1 {
		flag.Usage()
		os.Exit(2)
	}
	if err := packFile(flag.Arg(0), *lift); err != nil {
		fmt.Fprintln(os.Stderr, "packdata:", err)
		os.Exit(1)
	}
}

// packFile packs the data segments of the module in path, in place, lifting its column
// first with lift.
func packFile(path string, lift bool) error {
	in, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if lift {
		if in, err = Lift(in); err != nil {
			return fmt.Errorf("lift %s: %w", path, err)
		}
	}
	out, err := Pack(in, MaxGap)
	if err != nil {
		return fmt.Errorf("pack %s: %w", path, err)
	}
	return os.WriteFile(path, out, 0o644)
}
