package main

import (
	"fmt"
	"os"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: packdata module.wasm   (rewritten in place)")
		os.Exit(2)
	}
	if err := packFile(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "packdata:", err)
		os.Exit(1)
	}
}

// packFile packs the data segments of the module in path, in place.
func packFile(path string) error {
	in, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	out, err := Pack(in, MaxGap)
	if err != nil {
		return fmt.Errorf("pack %s: %w", path, err)
	}
	return os.WriteFile(path, out, 0o644)
}
