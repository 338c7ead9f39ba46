//go:build !js

// Command tabletop is Tabletop's native program: the Azure Table service server (the
// default), and the data-moving and repair subcommands. It is package native's Main:
//
//	go install ./worker/tabletop      # or: go run ./worker/tabletop -h
package main

import "github.com/tabletopdb/tabletop/worker/native"

func main() { native.Main() }
