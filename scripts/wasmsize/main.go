package main

import (
	"flag"
	"fmt"
	"os"
)

func main() {
	n := flag.Int("n", 40, "rows to print")
	funcs := flag.Bool("funcs", false, "list functions instead of packages")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: wasmsize [-n rows] [-funcs] module.wasm")
		os.Exit(2)
	}
	module, err := os.ReadFile(flag.Arg(0))
	if err == nil {
		err = report(os.Stdout, module, *n, *funcs)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "wasmsize:", err)
		os.Exit(1)
	}
}
